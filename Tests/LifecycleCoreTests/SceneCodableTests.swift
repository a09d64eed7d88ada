import Foundation
import Testing

@testable import LifecycleCore

/// Snapshots hold the `Device` through `Codable`: scene state round-trips, and devices saved before scenes load.
@Suite("Scenes in saved devices")
struct SceneCodableTests {
    @Test("sessions, pending discards and scene states survive encoding exactly")
    func roundTrip() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple, sceneDisconnectDelay: 30)
        try sim.on("a", .foregroundLaunch, .openScene(), .terminate, .closeScene(session: "s2"))
        let decoded = try JSONDecoder().decode(Device.self, from: try JSONEncoder().encode(sim.device))
        #expect(decoded == sim.device)
        #expect(decoded.app("a")?.sessions.map(\.pendingDiscard) == [false, true])
    }

    @Test("a device saved before scenes existed loads as a phone without a disconnect delay, its apps without sessions")
    func olderSnapshotsLoad() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        var json = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(sim.device)) as? [String: Any])
        // The keys a device was saved with before scenes: nothing new at the top level.
        let before: Set<String> = [
            "id", "configuration", "time", "locked", "foregroundApp", "interruption", "notificationCenterOpen",
            "settings", "lastSeq", "appOrder", "apps", "nextTaskID", "nextOrdinal", "appBeforeLock", "log",
        ]
        #expect(Set(json.keys).isSubset(of: before))
        var configuration = try #require(json["configuration"] as? [String: Any])
        configuration["idiom"] = nil
        configuration["sceneDisconnectDelay"] = nil
        json["configuration"] = configuration
        let older = try JSONSerialization.data(withJSONObject: json)
        #expect(!String(decoding: older, as: UTF8.self).contains("idiom"))
        let decoded = try JSONDecoder().decode(Device.self, from: older)
        #expect(decoded.configuration.idiom == .phone)
        #expect(decoded.configuration.sceneDisconnectDelay == nil)
        #expect(decoded.app("a")?.sessions == [])
        #expect(decoded == sim.device)
    }

    @Test("events encoded before the session field decode with no session")
    func olderEventsDecode() throws {
        let activate = try JSONDecoder().decode(Event.self, from: Data(#"{"activate": {}}"#.utf8))
        #expect(activate == .activate(session: nil))
        let open = try JSONDecoder().decode(Event.self, from: Data(#"{"openURL": {"url": "a://b"}}"#.utf8))
        #expect(open == .openURL(url: "a://b", sourceApplication: nil, annotation: nil, session: nil))
        let scene = Event.openScene(session: "s", url: nil, sourceApplication: nil, placement: .fullScreen)
        #expect(try JSONDecoder().decode(Event.self, from: try JSONEncoder().encode(scene)) == scene)
    }
}
