import Foundation
import LifecycleCore
import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios
import Testing

/// What `lifecycled check --coverage`, `--perturb` and `--versions` are built on: the model's bands and their
/// universes, the tally of a suite, the interruptions injected, the columns side by side.
@Suite struct CheckModesTests {
    static let model = ModelBands.known

    @Test("the bands are found from the core: they begin at its version gates, and each universe is reachable")
    func bands() {
        let starts = Self.model.bands.map(\.from.description)
        // Gates of the core: launch selectors (3.0, 6.0), multitasking (4.0), URL selectors (4.2, 9.0), lock (5.0),
        // fetch (7.0), scenes and BGTaskScheduler (13.0), prewarming (15.0), continued processing tasks (26.0), the
        // iOS 27 gate.
        for gate in ["2.0", "3.0", "4.0", "4.2", "5.0", "6.0", "7.0", "9.0", "13.0", "15.0", "26.0", "27.0"] {
            #expect(starts.contains(gate), "no band begins at \(gate): \(starts)")
        }
        for kind in ScheduledTaskKind.allCases {
            #expect(starts.contains(kind.since.description), "no band begins where \(kind) tasks do: \(starts)")
            let band = Self.model.bands[Self.model.band(of: kind.since)!].universe
            #expect(band.events.contains("launchTask") || kind == .continued, "\(kind): \(band.events.sorted())")
        }
        #expect(starts.count < ModelBands.candidates.count / 4)
        let scenes = Self.model.bands[Self.model.band(of: Version(17, 0))!].universe
        #expect(scenes.sceneStates.contains("foregroundActive"))
        #expect(scenes.callbacks.contains("sceneDidBecomeActive:"))
        let old = Self.model.bands[Self.model.band(of: Version(3, 1))!].universe
        #expect(old.sceneStates.isEmpty)
        #expect(!old.states.contains("suspended"), "iPhone OS 3 has no multitasking")
        #expect(!old.callbacks.contains("application:willFinishLaunchingWithOptions:"))
    }

    @Test("a suite's coverage counts what its timelines and posted events hold, per band, out of the universe")
    func coverage() throws {
        let entries = [
            #"{"kind": "state", "from": "notRunning", "to": "inactive", "app": "a"}"#,
            #"{"kind": "callback", "selector": "applicationDidBecomeActive:", "app": "a"}"#,
        ].map { try! JSONParser.parse(Array($0.utf8)) }
        var contents = NamespaceContents()
        contents.devices = [.init(id: "d", iosVersion: "9.0", apps: ["a"], timeline: entries)]
        var coverage = Coverage(model: Self.model)
        coverage.add(contents, posted: [("/v1/namespaces/n/apps/a/events", ["launch"])])
        let band = Self.model.band(of: Version(9, 0))!
        #expect(coverage.bandsRun == [band])
        let text = coverage.text()
        let universe = coverage.universe(of: band)
        #expect(text.contains("iOS 9.0-<13.0:"))
        #expect(text.contains("events: 1 of \(universe.events.count)"))
        #expect(text.contains("callbacks: 1 of \(universe.callbacks.count)"))
        #expect(text.contains("state transitions: 1 of \(universe.transitions.count)"))
        #expect(text.contains("not exercised: ") && text.contains("homeButton"))
        let json = try JSONParser.parse(Array(coverage.json().utf8))
        guard case .array(let bands)? = json["bands"] else {
            Issue.record("no bands in \(json)")
            return
        }
        #expect(bands[0]["events"]?["exercised"] == .array([.string("launch")]))
        #expect(
            Coverage.types(of: try JSONParser.parse(Array(#"[{"type": "lock"}, {"type": "unlock"}]"#.utf8)))
                == ["lock", "unlock"])
    }

    /// A transport that answers as a daemon with one active app `a` on device `d`, and records what it is sent.
    final class Fake: ScenarioTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var log: [String] = []
        var sent: [String] { lock.withLock { log } }
        func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
            -> (status: Int, headers: [(String, String)], body: [UInt8])
        {
            lock.withLock { log.append("\(method) \(path) \(String(decoding: body ?? [], as: UTF8.self))") }
            if path.hasSuffix("/apps/a") { return (200, [], Array(#"{"state": "active", "device": "d"}"#.utf8)) }
            if path.hasSuffix("/devices/d") { return (200, [], Array(#"{"foregroundApp": "a"}"#.utf8)) }
            return (200, [], Array("{}".utf8))
        }
    }

    @Test(
        "an interruption goes before the chosen events request only, on the app's path",
        arguments: Interruption.allCases)
    func perturbing(_ interruption: Interruption) throws {
        let fake = Fake()
        let transport = PerturbingTransport(fake, before: 2, interruption: interruption, token: nil)
        _ = try transport.exchange(method: "POST", path: "/v1/namespaces/n/apps/a/events", headers: [], body: nil)
        #expect(!transport.applied)
        _ = try transport.exchange(method: "GET", path: "/v1/namespaces/n/apps/a", headers: [], body: nil)
        _ = try transport.exchange(method: "POST", path: "/v1/namespaces/n/devices/d/events", headers: [], body: nil)
        #expect(transport.applied)
        let posted = fake.sent.filter { $0.hasPrefix("POST") }
        #expect(posted.count == 3)
        #expect(posted[1].hasPrefix("POST /v1/namespaces/n/apps/a/events ["))
        #expect(posted[2].hasPrefix("POST /v1/namespaces/n/devices/d/events"))
    }

    @Test("lists side by side: the first difference marked, two columns as check has always shown them")
    func columns() {
        let lists: [[JSONValue]] = [["x", "y"], ["x", "z", "w"], ["x", "y"]].map { $0.map(JSONValue.string) }
        #expect(ScenarioReport.firstDifference(lists) == 1)
        #expect(ScenarioReport.firstDifference([lists[0], lists[2]]) == nil)
        let shown = ScenarioReport.columns(["9.0", "13.0", "17.0"], lists, marking: 1)
        #expect(shown == "       9.0  13.0  17.0\n       x    x     x\n     > y    z     y\n            w     ")
        #expect(
            ScenarioReport.sideBySide(lists[0], lists[1], marking: 1)
                == "       expected  actual\n       x         x\n     > y         z\n                 w")
    }

    @Test("a scenario on another version: its devices' iosVersion replaced, nothing else")
    func onVersion() throws {
        let scenario = try ScenarioFormat.scenario(
            file: "s",
            bytes: Array(
                #"{"name": "n", "source": "s", "steps": [{"do": "POST /v1/devices", "body": {"id": "d", "iosVersion": "7.0"}}, {"do": "POST /v1/apps", "body": {"id": "a", "device": "d", "bundleId": "b"}}]}"#
                    .utf8))
        let moved = scenario.onVersion("13.0")
        #expect(moved.steps[0]["body"]?["iosVersion"] == .string("13.0"))
        #expect(moved.steps[1] == scenario.steps[1])
    }
}
