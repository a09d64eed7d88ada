import Foundation
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleScenarios
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// `GET .../export` writes a namespace as a scenario that replays it; `POST .../import` applies one, all or
/// nothing. An export checks against the daemon that wrote it, and imported it rebuilds the same timelines.
@Suite struct ExportImportTests {
    /// Scenario steps sent to a test daemon.
    struct DaemonTransport: ScenarioTransport {
        let server: TestDaemon

        func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
            -> (status: Int, headers: [(String, String)], body: [UInt8])
        {
            let reply = try server.request(
                method, path, body: body.map { String(decoding: $0, as: UTF8.self) }, headers: headers)
            return (reply.status, reply.headers.map { ($0.name, $0.value) }, reply.body)
        }
    }

    /// Every entry of a timeline, as served, page after page.
    static func timeline(_ server: TestDaemon, _ path: String) throws -> String {
        var text = ""
        var after = 0
        while true {
            let page = try server.get("\(path)?after=\(after)&limit=1000")
            try #require(page.status == 200, "\(page.text)")
            if page.items.isEmpty { return text }
            for item in page.items { text += canonical(item) + "\n" }
            after = try #require(page.int("next"))
        }
    }

    /// A device with two apps, driven through launches, a call, a URL, an app's deletion and time.
    static func drive(_ server: TestDaemon, prefix: String = "/v1") throws {
        _ = try server.createDevice(#"{"id": "phone", "iosVersion": "12.0", "settings": {"locale": "fr_FR"}}"#)
        _ = try server.post(
            "\(prefix)/apps",
            #"{"id": "mail", "device": "phone", "bundleId": "com.example.mail", "info": {"urlSchemes": ["mail"], "backgroundModes": ["audio"]}, "delegate": {"durations": {"applicationDidEnterBackground:": 2}}}"#
        )
        _ = try server.post(
            "\(prefix)/apps",
            #"{"id": "maps", "device": "phone", "bundleId": "com.example.maps", "sensitiveViews": ["route"], "restorableState": {"zoom": 3}}"#
        )
        try server.postEvents("\(prefix)/apps/mail/events", #"{"type": "launch"}"#)
        try server.postEvents(
            "\(prefix)/devices/phone/events",
            #"[{"type": "interruptionBegan", "kind": "call"}, {"type": "interruptionEnded", "accepted": false}]"#)
        let keyed = try server.post(
            "\(prefix)/apps/maps/events", #"{"type": "launch"}"#, headers: [("Idempotency-Key", "first-launch")])
        #expect(keyed.status == 200, "\(keyed.text)")
        try server.postEvents("\(prefix)/apps/mail/events", #"{"type": "openURL", "url": "mail://inbox"}"#)
        try server.postEvents(
            "\(prefix)/devices/phone/events", #"[{"type": "homeButton"}, {"type": "advanceTime", "seconds": 700}]"#)
        #expect(try server.delete("\(prefix)/apps/maps").status == 204)
        try server.postEvents("\(prefix)/devices/phone/events", #"{"type": "lock"}"#)
    }

    @Test func anExportChecksAgainstTheDaemonAndImportedRebuildsTheSameTimelines() throws {
        try withDaemon { server in
            try Self.drive(server)
            let export = try server.get("/v1/export")
            #expect(export.status == 200, "\(export.text)")
            #expect(export.header("Content-Disposition") == #"attachment; filename="default.scenario.json""#)
            let scenario = try Scenario(file: "default.scenario.json", bytes: export.body)
            #expect(scenario.namespace == "default")
            #expect(scenario.steps.first?["do"]?.stringValue == "POST /v1/devices")
            // Run as `lifecycled check` runs it: in a namespace of its own.
            try ScenarioRunner(transport: DaemonTransport(server: server), namespace: "replayed").run(scenario)
            #expect(
                try Self.timeline(server, "/v1/namespaces/replayed/devices/phone/timeline")
                    == Self.timeline(server, "/v1/devices/phone/timeline"))

            let imported = try server.post("/v1/namespaces/copy/import", export.text)
            #expect(imported.status == 200, "\(imported.text)")
            #expect(imported.object["devices"] as? [String] == ["phone"])
            #expect(imported.object["apps"] as? [String] == ["mail", "maps"])
            #expect(imported.string("expectations") == "checked")
            let original = try Self.timeline(server, "/v1/devices/phone/timeline")
            #expect(try Self.timeline(server, "/v1/namespaces/copy/devices/phone/timeline") == original)
            // Into `default` by its namespaced path: the steps' paths are its own.
            #expect(try server.delete("/v1/devices/phone").status == 204)
            let back = try server.post("/v1/namespaces/default/import", export.text)
            #expect(back.status == 200, "\(back.text)")
            #expect(try Self.timeline(server, "/v1/devices/phone/timeline") == original)
            #expect(
                try Self.timeline(server, "/v1/namespaces/copy/apps/mail/timeline")
                    == Self.timeline(server, "/v1/apps/mail/timeline"))
            // The idempotency key was replayed with its request: a retry in the copy is answered, not applied.
            let retry = try server.post(
                "/v1/namespaces/copy/apps/maps/events", #"{"type": "launch"}"#,
                headers: [("Idempotency-Key", "first-launch")])
            #expect(retry.status == 404, "the app was deleted in the copy as in the original: \(retry.text)")
        }
    }

    /// Client values holding `${` (which a scenario substitutes) are written escaped (`$${`), so an import and a
    /// check give them back byte for byte.
    @Test func valuesHoldingDollarBracesComeBackAsTheyWere() throws {
        try withDaemon { server in
            let texts = ["price ${run}", "${user}", "$${x}", "$", "${", "a $ b ${ c } $$${run}}", "${run}"]
            let listed = "[" + texts.map { #""\#($0)""# }.joined(separator: ", ") + "]"
            _ = try server.createDevice(#"{"id": "phone"}"#)
            let app = try server.post(
                "/v1/apps",
                #"{"id": "shop", "device": "phone", "bundleId": "com.example.shop", "info": {"urlSchemes": ["shop"]}, "restorableState": {"texts": \#(listed), "${key}": "${run}"}}"#
            )
            try #require(app.status == 201, "\(app.text)")
            try server.postEvents("/v1/apps/shop/events", #"{"type": "launch"}"#)
            try server.postEvents(
                "/v1/apps/shop/events",
                #"{"type": "openURL", "url": "shop://item", "annotation": {"texts": \#(listed)}}"#)
            try server.postEvents(
                "/v1/apps/shop/events", #"{"type": "remoteNotification", "payload": {"texts": \#(listed)}}"#)
            let export = try server.get("/v1/export")
            #expect(export.status == 200, "\(export.text)")
            let original = try Self.timeline(server, "/v1/apps/shop/timeline")
            let state = canonical(try server.get("/v1/apps/shop").object["restorableState"] ?? "")
            #expect(state.contains("price ${run}"), "\(state)")

            let imported = try server.post("/v1/namespaces/copy/import", export.text)
            #expect(imported.status == 200, "\(imported.text)")
            #expect(canonical(try server.get("/v1/namespaces/copy/apps/shop").object["restorableState"] ?? "") == state)
            #expect(try Self.timeline(server, "/v1/namespaces/copy/apps/shop/timeline") == original)
            // As `lifecycled check` runs it.
            let scenario = try Scenario(file: "shop", bytes: export.body)
            try ScenarioRunner(transport: DaemonTransport(server: server), namespace: "checked").run(scenario)
            #expect(try Self.timeline(server, "/v1/namespaces/checked/apps/shop/timeline") == original)
        }
    }

    /// A value saved once and used many times would make a step far larger than the scenario: the import stops
    /// at that step, before building it, and keeps nothing; so does a step whose body is over --max-body-bytes.
    @Test func anImportIsHeldToTheBodyLimitAfterSubstitution() throws {
        try withDaemon(maxBodyBytes: 16 << 10, configure: { $0.maxEventBytes = 1 << 20 }) { server in
            let state = String(repeating: "s", count: 5_000)
            let uses = String(repeating: "${b}", count: 100)
            let steps = #"""
                {"do": "POST /v1/devices", "body": {"id": "d"}, "status": 201},
                {"do": "POST /v1/apps", "body": {"id": "a", "device": "d", "bundleId": "b", "restorableState": {"s": "\#(state)"}}},
                {"do": "GET /v1/apps/a", "save": {"b": "restorableState.s"}},
                {"do": "POST /v1/apps/a/events", "body": {"type": "remoteNotification", "payload": {"x": "\#(uses)"}}}
                """#
            let refused = try server.post("/v1/import", #"{"name": "n", "source": "s", "steps": [\#(steps)]}"#)
            expectProblem(refused, status: 409, code: "import-failed")
            #expect(refused.int("step") == 4, "\(refused.text)")
            #expect(refused.string("detail")?.contains("16384") == true, "\(refused.text)")
            #expect(try server.get("/v1/devices/d").status == 404)
        }
    }

    /// The import's transport refuses a body over --max-body-bytes, as the HTTP server would.
    @Test func theImportTransportRefusesABodyOverTheLimit() throws {
        try withDaemon(maxBodyBytes: 16 << 10) { (server: TestDaemon) throws in
            let transport = ImportTransport(service: server.service, namespace: nil)
            let body = Array(#"{"id": "d", "name": "\#(String(repeating: "n", count: 16 << 10))"}"#.utf8)
            #expect {
                _ = try transport.exchange(method: "POST", path: "/v1/devices", headers: [], body: body)
            } throws: { error in
                "\(error)".contains("16384") && "\(error)".contains("--max-body-bytes")
            }
            #expect(try server.get("/v1/devices/d").status == 404)
        }
    }

    @Test func oneAppOrDeviceExportsItsDeviceWithExpectationsForItAlone() throws {
        try withDaemon { server in
            try Self.drive(server)
            _ = try server.createDevice(#"{"id": "tablet", "idiom": "pad"}"#)
            let app = try server.get("/v1/export?app=mail")
            #expect(app.status == 200, "\(app.text)")
            let scenario = try Scenario(file: "mail", bytes: app.body)
            let actions = scenario.steps.compactMap { $0["do"]?.stringValue }
            #expect(!actions.contains { $0.contains("tablet") }, "\(actions)")
            #expect(actions.contains("GET /v1/apps/mail") && !actions.contains("GET /v1/apps/maps"))
            try ScenarioRunner(transport: DaemonTransport(server: server), namespace: "one").run(scenario)

            let device = try server.get("/v1/export?device=tablet")
            #expect(try Scenario(file: "tablet", bytes: device.body).steps.count == 2)
            // Both: that app, which must be on that device.
            #expect(try server.get("/v1/export?app=mail&device=phone").text == app.text)
            expectProblem(try server.get("/v1/export?app=mail&device=tablet"), status: 404, code: "not-found")
            expectProblem(try server.get("/v1/export?app="), status: 400, code: "invalid-field")
            expectProblem(try server.get("/v1/export?format=har"), status: 400, code: "invalid-field")
            expectProblem(try server.get("/v1/export?app=nobody"), status: 404, code: "not-found")
            expectProblem(try server.get("/v1/namespaces/nowhere/export"), status: 404, code: "not-found")
            // An empty namespace has nothing to replay, and a scenario has at least one step.
            _ = try server.request("PUT", "/v1/namespaces/empty", body: "{}")
            expectProblem(try server.get("/v1/namespaces/empty/export"), status: 409, code: "not-exportable")
        }
    }

    /// An app id deleted on one device and created afterwards on another: the first device replays first,
    /// whatever their ids.
    @Test func anAppIdReusedOnAnotherDeviceReplaysInTheOrderItHappened() throws {
        try withDaemon { server in
            _ = try server.createDevice(#"{"id": "z-old"}"#)
            _ = try server.createDevice(#"{"id": "a-new"}"#)
            _ = try server.post("/v1/apps", #"{"id": "mail", "device": "z-old", "bundleId": "com.example.mail"}"#)
            try server.postEvents("/v1/apps/mail/events", #"{"type": "launch"}"#)
            #expect(try server.delete("/v1/apps/mail").status == 204)
            #expect(
                try server.post("/v1/apps", #"{"id": "mail", "device": "a-new", "bundleId": "com.example.mail"}"#)
                    .status == 201)
            let export = try server.get("/v1/export")
            let scenario = try Scenario(file: "reused", bytes: export.body)
            let created = scenario.steps.compactMap { $0["body"]?["device"]?.stringValue }
            #expect(created == ["z-old", "a-new"], "\(created)")
            try ScenarioRunner(transport: DaemonTransport(server: server), namespace: "reused").run(scenario)
        }
    }

    @Test func aRealtimeClockReplaysAsAManualOneWithTheSameCallbacks() throws {
        try withDaemon { server in
            _ = try server.createDevice(
                #"{"id": "rt", "clock": {"mode": "realtime", "speed": 1000}, "suspendDelay": 5}"#)
            _ = try server.post("/v1/apps", #"{"id": "music", "device": "rt", "bundleId": "com.example.music"}"#)
            try server.postEvents("/v1/apps/music/events", #"{"type": "launch"}"#)
            try server.postEvents("/v1/devices/rt/events", #"{"type": "homeButton"}"#)
            // 5 s of device time pass in 5 ms: the app is suspended by its clock, not by a request.
            #expect(try eventually { try server.get("/v1/apps/music").string("state") == "suspended" })
            let export = try server.get("/v1/export")
            let scenario = try Scenario(file: "rt", bytes: export.body)
            #expect(scenario.steps[0]["body"]?["clock"]?["mode"]?.stringValue == "manual")
            #expect(export.text.contains(#""type":"advanceTime""#), "\(export.text)")
            try ScenarioRunner(transport: DaemonTransport(server: server), namespace: "manual").run(scenario)
            #expect(
                selectors(try server.get("/v1/namespaces/manual/apps/music/callbacks").items)
                    == selectors(try server.get("/v1/apps/music/callbacks").items))
        }
    }

    @Test func aDeviceOverItsRecordingBudgetIsNotExportable() throws {
        try withDaemon(configure: { $0.recordingBytes = 2_000 }) { server in
            _ = try server.createDevice(#"{"id": "small"}"#)
            _ = try server.createDevice(#"{"id": "busy"}"#)
            for _ in 0..<40 {
                try server.postEvents("/v1/devices/busy/events", #"{"type": "advanceTime", "seconds": 1}"#)
            }
            let refused = try server.get("/v1/export")
            expectProblem(refused, status: 409, code: "not-exportable")
            #expect(refused.object["devices"] as? [String] == ["busy"])
            #expect(refused.string("detail")?.contains("--recording-bytes") == true)
            #expect(try server.get("/v1/export?device=small").status == 200)
        }
        try withDaemon(configure: { $0.recordingBytes = 0 }) { server in
            _ = try server.createDevice(#"{"id": "unrecorded"}"#)
            expectProblem(try server.get("/v1/export"), status: 409, code: "not-exportable")
        }
    }

    @Test func aRecordingSurvivesARestartThroughSnapshotsAndReplay() throws {
        try withTemporaryDirectory { directory in
            let before: String
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory), snapshotEvery: 5)
                defer { server.stop() }
                try Self.drive(server)
                before = try server.get("/v1/export").text
            }
            let server = try TestDaemon(store: .sqlite(directory: directory), snapshotEvery: 5)
            defer { server.stop() }
            #expect(try server.get("/v1/export").text == before)
            try server.postEvents("/v1/devices/phone/events", #"{"type": "unlock"}"#)
            let after = try server.get("/v1/export")
            #expect(
                after.text.contains(#"{"do":"POST /v1/devices/phone/events","body":[{"type":"unlock"}]}"#),
                "\(after.text)")
        }
    }

    @Test func anImportThatFailsLeavesNothingAndSaysWhere() throws {
        try withDaemon { server in
            _ = try server.createDevice(#"{"id": "theirs"}"#)
            func scenario(_ steps: String) -> String { #"{"name": "n", "source": "s", "steps": [\#(steps)]}"# }
            let create =
                #"{"do": "POST /v1/devices", "body": {"id": "mine"}, "status": 201}, {"do": "POST /v1/apps", "body": {"id": "app", "device": "mine", "bundleId": "b"}}"#

            // A step on a device the import did not create.
            let foreign = try server.post(
                "/v1/import",
                scenario(create + #", {"do": "POST /v1/devices/theirs/events", "body": {"type": "lock"}}"#))
            expectProblem(foreign, status: 409, code: "import-failed")
            #expect(foreign.int("step") == 3 && foreign.string("detail")?.contains("theirs") == true, "\(foreign.text)")
            #expect(try server.get("/v1/devices/mine").status == 404 && server.get("/v1/apps/app").status == 404)
            #expect(try server.get("/v1/devices/theirs").object["locked"] as? Bool == false)

            // An expectation that does not hold: checked, it fails the import; ignored, the import applies.
            let wrong = create + #", {"do": "GET /v1/apps/app", "expect": {"state": "active"}}"#
            let checked = try server.post("/v1/import", scenario(wrong))
            expectProblem(checked, status: 409, code: "import-failed")
            #expect(try checked.int("step") == 3 && server.get("/v1/devices/mine").status == 404)
            let ignored = try server.post("/v1/import?expectations=ignore", scenario(wrong))
            #expect(ignored.status == 200 && ignored.string("expectations") == "ignored", "\(ignored.text)")
            #expect(try server.get("/v1/apps/app").string("state") == "notRunning")

            // A list that differs is shown whole, as `lifecycled check` shows it.
            let callbacks =
                #"{"do": "POST /v1/devices", "body": {"id": "m2"}}, {"do": "POST /v1/apps", "body": {"id": "a2", "device": "m2", "bundleId": "b"}}, {"do": "POST /v1/apps/a2/events", "body": {"type": "launch"}}, {"do": "GET /v1/apps/a2/callbacks", "pluck": "items[].selector", "expect": ["application:willFinishLaunchingWithOptions:", "applicationDidBecomeActive:"]}"#
            let lists = try server.post("/v1/import", scenario(callbacks))
            expectProblem(lists, status: 409, code: "import-failed")
            let shown = lists.nested("lists")
            #expect((shown["actual"] as? [String])?.count == 3 && shown["index"] as? Int == 1, "\(lists.text)")
            #expect((shown["expected"] as? [String])?.count == 2)

            expectProblem(
                try server.post("/v1/import?expectations=maybe", scenario(create)), status: 400, code: "invalid-field")
            expectProblem(try server.post("/v1/import", scenario(#"{"sleep": 1}"#)), status: 400, code: "invalid-field")
            expectProblem(try server.post("/v1/import", #"{"steps": 3}"#), status: 400, code: "invalid-field")
            // Each body is refused for its own mistake, named by its JSON path (`field`).
            for (body, field) in [
                (#"{"name": "n", "source": "s", "steps": []}"#, "steps"),
                (#"{"name": "n", "source": "s", "steps": [{}]}"#, "steps[0].do"),
                (#"{"name": "", "source": "s", "steps": [{"do": "GET /v1/apps"}]}"#, "name"),
                (#"{"name": "n", "steps": [{"do": "GET /v1/apps"}]}"#, "source"),
                (#"{"name": "n", "source": "s", "extra": 1, "steps": [{"do": "GET /v1/apps"}]}"#, "extra"),
                (#"{"name": "n", "source": "s", "steps": [{"do": "GET /v1/apps", "wait": 1}]}"#, "steps[0].wait"),
                (#"{"name": "n", "source": "s", "steps": [{"do": "FETCH /v1/apps"}]}"#, "steps[0].do"),
                (
                    #"{"name": "n", "source": "s", "steps": [{"do": "GET /v1/apps", "status": "200"}]}"#,
                    "steps[0].status"
                ),
                (
                    #"{"name": "n", "source": "s", "steps": [{"do": "GET /v1/apps", "headers": {"A": 1}}]}"#,
                    "steps[0].headers.A"
                ),
                (#"{"name": "n", "source": "s", "steps": [{"do": "GET /v1/apps", "expect": {}}]}"#, "steps[0].expect"),
                (#"{"name": "n", "source": "s", "steps": [{"do": "GET /v1/apps"}, {"sleep": 1}]}"#, "steps[1].sleep"),
            ] {
                let refused = try server.post("/v1/import", body)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == field, "\(refused.text)")
            }
            // A misspelt member (the only assertion of its step) is named with the closest valid one.
            let misspelt = try server.post(
                "/v1/import",
                scenario(
                    #"{"do": "POST /v1/devices", "body": {"id": "typo"}}, {"do": "GET /v1/devices/typo"}, {"do": "GET /v1/apps/app", "expcet": {"state": "suspended"}}"#
                ))
            expectProblem(misspelt, status: 400, code: "invalid-field")
            #expect(
                misspelt.string("field") == "steps[2].expcet" && misspelt.string("didYouMean") == "expect",
                "\(misspelt.text)")
            #expect(misspelt.string("detail")?.contains("did you mean expect?") == true)
            #expect(try server.get("/v1/devices/typo").status == 404, "nothing of a refused import ran")
            let later = try server.post("/v1/import", #"{"name": "n", "format": 2, "steps": [{"do": "GET /v1/apps"}]}"#)
            expectProblem(later, status: 400, code: "invalid-field")
            #expect(later.string("detail")?.contains("format 2") == true, "\(later.text)")
            expectProblem(
                try server.post("/v1/import", scenario(#"{"do": "POST /v1/reset"}"#)), status: 409,
                code: "import-failed")
            expectProblem(
                try server.post("/v1/import", scenario(#"{"do": "GET /v1/namespaces/other/devices"}"#)), status: 409,
                code: "import-failed")
            expectProblem(
                try server.post("/v1/import", scenario(create + #", {"do": "GET /v1/apps/app/timeline?wait=5"}"#)),
                status: 409, code: "import-failed")
        }
    }
}

/// Recordings count against the daemon's budget (`--memory-bytes`) with the entries: past it, a device
/// with no entry left to give up gives up its recording, and can no longer be exported.
@Suite struct RecordingBudgetTests {
    @Test func theBudgetTakesTheRecordingsOfTheLargestHolders() throws {
        try withDaemon(configure: { $0.memoryBytes = 2 << 20 }) { server in
            let state = String(repeating: "s", count: 50_000)
            for device in 0..<3 {
                _ = try server.createDevice(#"{"id": "d\#(device)"}"#)
                for app in 0..<8 {
                    let made = try server.post(
                        "/v1/apps",
                        #"{"id": "a\#(device)-\#(app)", "device": "d\#(device)", "bundleId": "b", "restorableState": {"s": "\#(state)"}}"#
                    )
                    try #require(made.status == 201, "\(made.text)")
                }
            }
            // 24 descriptions of about 50 KB each are held (1.2 MB) and recorded (1.2 MB): more than the budget of
            // 2 MiB, of which the descriptions cannot give way.
            #expect(
                eventually { server.service.application.memoryBudget.total <= 2 << 20 },
                "\(server.service.application.memoryBudget.total)")
            let refused = try server.get("/v1/export")
            expectProblem(refused, status: 409, code: "not-exportable")
            let unrecorded = refused.object["devices"] as? [String] ?? []
            #expect(!unrecorded.isEmpty && unrecorded.count < 3, "\(unrecorded)")
            // The others still export, and their recording goes on.
            let kept = try #require(["d0", "d1", "d2"].first { !unrecorded.contains($0) })
            #expect(try server.get("/v1/export?device=\(kept)").status == 200)
        }
    }
}
