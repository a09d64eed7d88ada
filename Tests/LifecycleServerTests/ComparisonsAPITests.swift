import Foundation
import LifecycleApplication
import LifecycleCore
import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios
import LifecycleTesting
import Testing

/// `GET .../coverage` and `GET .../apps/{id}/versions` (docs/API.md, "Coverage and every version side by side"):
/// the same answers as `lifecycled check --coverage` and `--versions` give, from the same code, and every bad
/// input a 400 naming what is allowed.
@Suite struct ComparisonsAPITests {
    static let events = #"[{"type": "launch"}, {"type": "homeButton"}, {"type": "launch"}]"#

    /// The model's bands, derived once per process at the first such read: some seconds in a debug build on a
    /// busy machine, longer than a test's request waits, so derived before any request.
    init() { _ = ModelBands.known }

    /// A namespace `ns` with a device on iOS 9.0 (manual clock) and one on 17.0 (realtime), an app on each
    /// driven by `events`.
    private func populate(_ server: TestDaemon, _ ns: String) throws {
        let root = "/v1/namespaces/\(ns)"
        for (device, version, clock) in [("d9", "9.0", "manual"), ("d17", "17.0", "realtime")] {
            let made = try server.post(
                "\(root)/devices", #"{"id": "\#(device)", "iosVersion": "\#(version)", "clock": {"mode": "\#(clock)"}}"#
            )
            try #require(made.status == 201, "\(made.text)")
            let app = try server.post(
                "\(root)/apps", #"{"id": "a-\#(device)", "device": "\#(device)", "bundleId": "com.example.a"}"#)
            try #require(app.status == 201, "\(app.text)")
            let sent = try server.post("\(root)/apps/a-\(device)/events", Self.events)
            try #require(sent.status == 200, "\(sent.text)")
        }
    }

    @Test func coverageIsWhatCheckCoverageReportsOfTheSameNamespace() throws {
        try withDaemon { (server: TestDaemon) throws in
            try populate(server, "cov")
            let reply = try server.get("/v1/namespaces/cov/coverage")
            try #require(reply.status == 200, "\(reply.text)")
            // check --coverage's way: the namespace read through the API, the events posted recorded.
            let contents = try NamespaceContents.read(
                "cov", through: ExportImportTests.DaemonTransport(server: server))
            let types = Coverage.types(of: try JSONParser.parse(Array(Self.events.utf8)))
            var expected = Coverage(model: ModelBands.known)
            expected.add(
                contents,
                posted: ["d9", "d17"].map { (path: "/v1/namespaces/cov/apps/a-\($0)/events", types: types) })
            #expect(reply.text == expected.json())
            let bands = try #require(reply.object["bands"] as? [[String: Any]])
            #expect(bands.count == 2, "9.0 and 17.0 are in two bands of the model")
            let events = try #require(bands.first?["events"] as? [String: Any])
            #expect(events["exercised"] as? [String] == ["homeButton", "launch"])
            #expect(reply.object["unplaced"] as? Int == 0)
            // Its ETag answers 304 while nothing changes, 200 once something did.
            let tag = try #require(reply.header("ETag"))
            #expect(try server.get("/v1/namespaces/cov/coverage", headers: [("If-None-Match", tag)]).status == 304)
            _ = try server.post("/v1/namespaces/cov/apps/a-d9/events", #"{"type": "memoryWarning"}"#)
            #expect(try server.get("/v1/namespaces/cov/coverage", headers: [("If-None-Match", tag)]).status == 200)
        }
    }

    /// A read token reads a namespace's coverage (the refusals are NamespaceTokenTests'); here, where the bands
    /// are derived before the request, which the first coverage read of a process otherwise does.
    @Test func aReadTokenReadsItsNamespacesCoverage() throws {
        try withDaemon(tokens: NamespaceTokenTests.tokens) { (server: TestDaemon) throws in
            let reader = [("Authorization", "Bearer \(NamespaceTokenTests.reader)")]
            let writer = [("Authorization", "Bearer \(NamespaceTokenTests.mail)")]
            let app = #"{"id": "a", "bundleId": "com.example.a"}"#
            #expect(try server.post("/v1/namespaces/mail-1/apps", app, headers: writer).status == 201)
            #expect(try server.get("/v1/namespaces/mail-1/coverage", headers: reader).status == 200)
            expectProblem(
                try server.get("/v1/namespaces/maps/coverage", headers: reader), status: 403, code: "forbidden")
        }
    }

    @Test func coverageOfTheDefaultNamespaceAndOfOneThatIsNot() throws {
        try withDaemon { (server: TestDaemon) throws in
            let empty = try server.get("/v1/coverage")
            #expect(empty.status == 200)
            #expect((empty.object["bands"] as? [Any])?.isEmpty == true)
            #expect(try server.get("/v1/namespaces/nowhere/coverage").status == 404)
        }
    }

    @Test func versionsAreTheCallbacksOfTheSameInputsRunOnEachVersion() throws {
        try withDaemon { (server: TestDaemon) throws in
            try populate(server, "v")
            let listed = ["4.0", "9.0", "17.0"]
            for app in ["a-d9", "a-d17"] {
                let reply = try server.get(
                    "/v1/namespaces/v/apps/\(app)/versions?versions=\(listed.joined(separator: ","))")
                try #require(reply.status == 200, "\(reply.text)")
                #expect(reply.string("app") == app)
                #expect(reply.object["versions"] as? [String] == listed)
                #expect((reply.object["stopped"] as? [Any])?.allSatisfy { $0 is NSNull } == true, "\(reply.text)")
                let compared = try #require((reply.object["apps"] as? [[String: Any]])?.first)
                let callbacks = try #require(compared["callbacks"] as? [String: [String]])
                // Run for real: a device of each version, the same events, its callbacks read back.
                var lists: [[String]] = []
                for (index, version) in listed.enumerated() {
                    let ns = "real-\(app)-\(index)"
                    _ = try server.post("/v1/namespaces/\(ns)/devices", #"{"id": "d", "iosVersion": "\#(version)"}"#)
                    _ = try server.post("/v1/namespaces/\(ns)/apps", #"{"id": "a", "device": "d", "bundleId": "x"}"#)
                    _ = try server.post("/v1/namespaces/\(ns)/apps/a/events", Self.events)
                    let read = try server.get("/v1/namespaces/\(ns)/apps/a/callbacks?limit=1000")
                    lists.append(read.items.compactMap { $0["selector"] as? String })
                    #expect(callbacks[version] == lists[index], "\(app) on \(version)")
                }
                let first = ScenarioReport.firstDifference(lists.map { $0.map(JSONValue.string) })
                #expect(first == 0, "iOS 4.0 has no willFinishLaunching")
                #expect(compared["firstDifference"] as? Int == first)
            }
            // By default: the first version of each band of the model.
            let all = try server.get("/v1/namespaces/v/apps/a-d9/versions")
            #expect(all.status == 200)
            #expect(all.object["versions"] as? [String] == ModelBands.known.bands.map(\.from.description))
            // Its ETag.
            let tag = try #require(all.header("ETag"))
            #expect(
                try server.get("/v1/namespaces/v/apps/a-d9/versions", headers: [("If-None-Match", tag)]).status == 304)
        }
    }

    @Test func aVersionWhoseCoreRefusesAnInputStopsThereAndSaysWhich() throws {
        try withDaemon { (server: TestDaemon) throws in
            try server.createDevice(#"{"id": "d", "iosVersion": "17.0"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
            _ = try server.postEvents("/v1/apps/a/events", #"[{"type": "launch"}]"#)
            _ = try server.postEvents("/v1/devices/d/events", #"[{"type": "notificationCenterOpened"}]"#)
            _ = try server.postEvents("/v1/apps/a/events", #"[{"type": "homeButton"}]"#)
            let reply = try server.get("/v1/apps/a/versions?versions=4.0,17.0")
            try #require(reply.status == 200, "\(reply.text)")
            let stopped = try #require(reply.object["stopped"] as? [Any])
            #expect(stopped.count == 2)
            #expect(stopped.last is NSNull)
            let why = try #require(stopped.first as? String, "no Notification Center before iOS 5: \(reply.text)")
            #expect(why.hasPrefix("input 4 (events notificationCenterOpened to the device): "), "\(why)")
            #expect(why.contains("Notification Center exists from iOS 5.0"), "\(why)")
            let callbacks = try #require(
                (reply.object["apps"] as? [[String: Any]])?.first?["callbacks"] as? [String: [String]])
            #expect(callbacks["4.0"]?.count ?? 0 < callbacks["17.0"]?.count ?? 0, "4.0 stopped before Home")
        }
    }

    @Test(arguments: [
        ("", "an empty item"), ("1.0", "\"1.0\""), ("9.0,,17.0", "an empty item"), ("banana", "\"banana\""),
        ("9.0.0.1", "\"9.0.0.1\""), ("10000", "\"10000\""),
        (Array(repeating: "9.0", count: 17).joined(separator: ","), "17"),
    ])
    func aBadListOfVersionsIsRefusedNamingWhatIsAllowed(list: String, named: String) throws {
        try withDaemon { (server: TestDaemon) throws in
            try server.createDevice(#"{"id": "d"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "x"}"#)
            let reply = try server.get("/v1/apps/a/versions?versions=\(list)")
            #expect(reply.status == 400)
            #expect(reply.header("Content-Type") == "application/problem+json")
            #expect(reply.string("code") == "invalid-field")
            #expect(reply.string("field") == "versions")
            let detail = reply.string("detail") ?? ""
            #expect(detail.contains(named), "\(detail)")
            #expect(detail.contains("9.0,13.0,17.0") || detail.contains("at most 16"), "\(detail)")
        }
    }

    @Test func anAppWhoseRecordingNoLongerStartsAtItsDeviceCreationIsNotReplayed() throws {
        try withDaemon(configure: { $0.recordingBytes = 256 }) { (server: TestDaemon) throws in
            try server.createDevice(#"{"id": "d"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "x"}"#)
            for _ in 0..<8 { _ = try server.postEvents("/v1/apps/a/events", Self.events) }
            let reply = try server.get("/v1/apps/a/versions?versions=9.0")
            #expect(reply.status == 409, "\(reply.text)")
            #expect(reply.string("code") == "not-exportable")
            #expect(reply.object["devices"] as? [String] == ["d"])
        }
    }

    @Test func anUnknownAppIsNotFound() throws {
        try withDaemon { (server: TestDaemon) throws in
            #expect(try server.get("/v1/apps/nope/versions").status == 404)
            #expect(try server.get("/v1/namespaces/nowhere/apps/nope/versions").status == 404)
        }
    }
}
