import Foundation
import LifecycleCore
import LifecycleExplore
import LifecycleScenarios
import Testing

/// The model checks itself: rules of docs/LIFECYCLE.md stated as properties in the scenario format's patterns,
/// held by seeded walks over app-delegate and scene apps, one app or two, on every band of versions. The fast
/// tier explores a few thousand steps; the full tier (`scripts/test`) sets LIFECYCLED_EXPLORE_WALKS for far more.
@Suite struct InvariantTests {
    /// Walks per world: a few in the fast tier, what LIFECYCLED_EXPLORE_WALKS says in the full one.
    static let walks = ProcessInfo.processInfo.environment["LIFECYCLED_EXPLORE_WALKS"].flatMap(Int.init) ?? 12
    static let steps = 40

    /// The rules, as reads of app `a` with an expect (`${run}` in the ids).
    static func properties(of app: String) -> [String] {
        let timeline = "GET /v1/apps/\(app)/timeline?limit=1000"
        return [
            // §1, §3: no callback while the app is suspended or not running.
            #"{"do": "GET /v1/apps/\#(app)/callbacks?limit=1000", "pluck": "items[]", "expect": {"$none": {"state": "suspended"}}}"#,
            #"{"do": "GET /v1/apps/\#(app)/callbacks?limit=1000", "pluck": "items[]", "expect": {"$none": {"state": "notRunning"}}}"#,
            // §1: the state entries chain: each one leaves the state the one before entered.
            #"{"do": "\#(timeline)", "pluck": "items[]", "expect": {"$followedBy": {"each": {"kind": "state"}, "by": {"kind": "state"}, "same": {"to": "from"}, "before": {"kind": "state"}}}}"#,
            // §6: every background task is ended or expires (the same task) before the app is suspended, unless the
            // app stops first (its tasks end with it).
            #"{"do": "\#(timeline)", "pluck": "items[]", "expect": {"$followedBy": {"each": {"kind": "backgroundTask", "event": "began"}, "by": {"kind": "backgroundTask", "event": {"$not": "began"}}, "same": {"task": "task"}, "before": {"kind": "state", "to": "suspended"}, "unless": {"kind": "termination"}}}}"#,
            // §9: after applicationWillTerminate: no callback before the app has stopped.
            #"{"do": "\#(timeline)", "pluck": "items[]", "expect": {"$followedBy": {"each": {"selector": "applicationWillTerminate:"}, "by": {"kind": "state", "to": "notRunning"}, "before": {"kind": "callback"}}}}"#,
            // §6: a background task expires only in the background (its budget runs there alone).
            #"{"do": "\#(timeline)", "pluck": "items[]", "expect": {"$followedBy": {"each": {"kind": "state", "to": {"$not": "background"}}, "by": {"kind": "state", "to": "background"}, "before": {"kind": "backgroundTask", "event": "expired"}}}}"#,
        ]
    }

    static let sceneApp = #"""
        "info": {"sceneManifest": {"supportsMultipleScenes": true, "configurations": [{"name": "Default Configuration"}]}},
        "delegate": {"returns": {"application:configurationForConnectingSceneSession:options:": "Default Configuration"}}
        """#

    /// The worlds: (name, device body, apps' bodies less id and device).
    static let worlds: [(String, String, [String])] = [
        ("app delegate, iOS 6", #"{"iosVersion": "6.0"}"#, [#""bundleId": "com.example.a""#]),
        (
            "app delegate, iOS 9, passcode", #"{"iosVersion": "9.0", "passcode": true}"#,
            [#""bundleId": "com.example.a""#]
        ),
        (
            "two apps, iOS 12", #"{"iosVersion": "12.0"}"#,
            [
                #""bundleId": "com.example.a""#,
                #""bundleId": "com.example.b", "info": {"backgroundModes": ["audio", "fetch"]}"#,
            ]
        ),
        (
            "scene app, iPad, iOS 17", #"{"iosVersion": "17.0", "idiom": "pad"}"#,
            [#""bundleId": "com.example.s", "# + sceneApp]
        ),
        (
            "scene app and app-delegate app, iOS 15", #"{"iosVersion": "15.0"}"#,
            [#""bundleId": "com.example.s", "# + sceneApp, #""bundleId": "com.example.a""#]
        ),
    ]

    static func world(_ index: Int) throws -> ExploreWorld {
        let (name, device, apps) = worlds[index]
        var steps = [#"{"do": "POST /v1/devices", "body": \#(device.dropLast()), "id": "d-${run}"}}"#]
        var properties: [String] = []
        for (number, app) in apps.enumerated() {
            steps.append(
                #"{"do": "POST /v1/apps", "body": {"id": "a\#(number)-${run}", "device": "d-${run}", \#(app)}}"#)
            properties += Self.properties(of: "a\(number)-${run}")
        }
        let text =
            #"{"name": "\#(name)", "source": "LIFECYCLE §1", "steps": [\#((steps + properties).joined(separator: ",\n"))]}"#
        let scenario = try ScenarioFormat.scenario(file: "invariants \(index)", bytes: Array(text.utf8))
        return try ExploreWorld(scenario: scenario, source: "LIFECYCLE §1")
    }

    @Test("the rules of LIFECYCLE.md hold on every walk", arguments: worlds.indices)
    func invariantsHold(world index: Int) throws {
        let world = try Self.world(index)
        var options = ExploreOptions()
        options.seed = 0x11FE_C7C1E + UInt64(index)
        options.walks = Self.walks
        options.steps = Self.steps
        let report = try Explorer(world: world, options: options).run()
        #expect(report.events > Self.walks * Self.steps / 2, "\(report.events) events")
        if let finding = report.failure {
            Issue.record(
                """
                \(Self.worlds[index].0): \(world.properties[finding.failure.property].label) found false: \
                \(finding.failure.message)
                \(world.scenario(of: finding, seed: options.seed))
                """)
        }
    }
}
