import Foundation
import LifecycleCore
import LifecycleScenarios
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// The property of export: whatever a namespace went through, its export checks against the daemon that
/// wrote it, and imported into a fresh namespace it rebuilds the same timelines, byte for byte. Random walks
/// (seeded) of devices and apps through events, refused ones included, apps created and deleted on the way.
@Suite struct ExportWalkTests {
    static let appEvents = [
        #"{"type": "launch"}"#, #"{"type": "launch", "background": true}"#, #"{"type": "activate"}"#,
        #"{"type": "terminate"}"#, #"{"type": "beginBackgroundTask", "name": "upload"}"#,
        #"{"type": "endBackgroundTask", "task": 1}"#, #"{"type": "remoteNotification", "contentAvailable": true}"#,
        #"{"type": "openURL", "url": "walk://here"}"#, #"{"type": "memoryWarning"}"#, #"{"type": "backgroundFetch"}"#,
        #"{"type": "crash"}"#, #"{"type": "moveTo", "state": "background"}"#,
        #"{"type": "moveTo", "state": "suspended"}"#,
        #"{"type": "moveTo", "state": "active"}"#,
        #"{"type": "tapNotification", "source": "banner", "payload": {"n": 1}}"#,
    ]
    static let deviceEvents = [
        #"{"type": "homeButton"}"#, #"{"type": "lock"}"#, #"{"type": "unlock"}"#,
        #"{"type": "interruptionBegan", "kind": "call"}"#, #"{"type": "interruptionEnded", "accepted": true}"#,
        #"{"type": "interruptionEnded", "accepted": false}"#, #"{"type": "advanceTime", "seconds": 3}"#,
        #"{"type": "advanceTime", "seconds": 700}"#, #"{"type": "memoryPressure", "level": "critical"}"#,
        #"{"type": "notificationCenterOpened"}"#, #"{"type": "notificationCenterClosed"}"#,
        #"{"type": "appSwitcherOpened"}"#, #"{"type": "appSwitcherClosed"}"#, #"{"type": "bannerNotification"}"#,
    ]

    /// One walk in the namespace `space`: devices of several OS versions, one of them with a scene app.
    static func walk(_ server: TestDaemon, space: String, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let base = "/v1/namespaces/\(space)"
        var apps: [String] = []
        for (index, version) in ["3.0", "7.0", "13.0"].enumerated() where index == 0 || random.chance(70) {
            let device = "d\(index)"
            let created = try server.post(
                "\(base)/devices",
                #"{"id": "\#(device)", "iosVersion": "\#(version)", "suspendDelay": \#(random.pick([0, 5]))}"#)
            try #require(created.status == 201, "\(created.text)")
            for number in 0..<Int.random(in: 1...3, using: &random) {
                let app = "\(device)-a\(number)"
                let scenes = version == "13.0" && number == 0
                let manifest = scenes ? #", "info": {"sceneManifest": {"configurations": [{"name": "Default"}]}}"# : ""
                let made = try server.post(
                    "\(base)/apps",
                    #"{"id": "\#(app)", "device": "\#(device)", "bundleId": "com.walk.\#(number)"\#(manifest)}"#)
                try #require(made.status == 201, "\(made.text)")
                apps.append(app)
            }
        }
        for step in 0..<60 {
            let app = random.pick(apps)
            let device = String(app.prefix { $0 != "-" })
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<55:
                let key = random.chance(10) ? [("Idempotency-Key", "k\(step)")] : []
                _ = try server.post("\(base)/apps/\(app)/events", random.pick(appEvents), headers: key)
            case 55..<90:
                _ = try server.post("\(base)/devices/\(device)/events", random.pick(deviceEvents))
            case 90..<95:
                let batch = [random.pick(appEvents), random.pick(deviceEvents), random.pick(appEvents)]
                _ = try server.post("\(base)/apps/\(app)/events", "[\(batch.joined(separator: ","))]")
            case 95..<97:
                if apps.count > 1, try server.delete("\(base)/apps/\(app)").status == 204 {
                    apps.removeAll { $0 == app }
                }
            default:
                let late = "\(device)-late\(step)"
                if try server.post(
                    "\(base)/apps", #"{"id": "\#(late)", "device": "\#(device)", "bundleId": "com.walk.late"}"#
                )
                .status == 201 {
                    apps.append(late)
                }
            }
        }
    }

    /// Every device's timeline in `space`, as served.
    static func timelines(_ server: TestDaemon, space: String) throws -> [String: String] {
        var all: [String: String] = [:]
        for device in try server.get("/v1/namespaces/\(space)/devices?limit=1000").items {
            let id = try #require(device["id"] as? String)
            all[id] = try ExportImportTests.timeline(server, "/v1/namespaces/\(space)/devices/\(id)/timeline")
        }
        return all
    }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func aRandomWalkExportedChecksAndImportsToTheSameTimelines(seed: UInt64) throws {
        try withDaemon { server in
            try Self.walk(server, space: "walk", seed: seed)
            let export = try server.get("/v1/namespaces/walk/export")
            try #require(export.status == 200, "\(export.text)")
            let scenario = try Scenario(file: "walk-\(seed)", bytes: export.body)
            // The walk is a walk: many of its events were applied (and recorded), not only refused.
            let applied = scenario.steps.filter { $0["do"]?.stringValue?.hasSuffix("/events") == true }.count
            #expect(applied >= 20, "\(applied) events applied")
            try ScenarioRunner(transport: ExportImportTests.DaemonTransport(server: server), namespace: "checked")
                .run(scenario)
            let imported = try server.post("/v1/namespaces/copy/import", export.text)
            try #require(imported.status == 200, "\(imported.text)")
            let original = try Self.timelines(server, space: "walk")
            #expect(!original.isEmpty)
            #expect(try Self.timelines(server, space: "copy") == original)
            #expect(try Self.timelines(server, space: "checked") == original)
        }
    }
}
