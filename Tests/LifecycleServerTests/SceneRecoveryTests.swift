import Foundation
import LifecycleTesting
import TestSupport
import Testing

/// Sessions, pending discards and scene states survive a restart byte for byte (LIFECYCLE §11), whether
/// the device comes back from its journal or from a snapshot.
@Suite struct SceneRecoveryTests {
    static let reads = [
        "/v1/devices/pad", "/v1/apps/notes", "/v1/apps/mail", "/v1/apps/notes/timeline?limit=1000",
        "/v1/apps/notes/timeline?session=s2&limit=1000", "/v1/apps/notes/callbacks?session=s1&limit=1000",
        "/v1/apps/notes/notifications?delivered=true&limit=1000", "/v1/devices/pad/timeline?limit=1000",
    ]

    @Test(arguments: [10_000, 3])
    func sessionsAndSceneStatesSurviveARestart(snapshotEvery: Int) throws {
        try withTemporaryDirectory { directory in
            let before: [String: Reply]
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory), snapshotEvery: snapshotEvery)
                defer { server.stop() }
                try server.createDevice(
                    #"{"id": "pad", "iosVersion": "17.0", "idiom": "pad", "sceneDisconnectDelay": 40}"#)
                let manifest = #"{"supportsMultipleScenes": true, "configurations": [{"name": "Main"}]}"#
                try server.createApp(
                    #"{"id": "notes", "device": "pad", "bundleId": "com.example.notes", "info": {"sceneManifest": \#(manifest)}}"#
                )
                try server.createApp(
                    #"{"id": "mail", "device": "pad", "bundleId": "com.example.mail", "info": {"sceneManifest": \#(manifest)}}"#
                )
                try server.postEvents(
                    "/v1/apps/notes/events",
                    #"[{"type": "launch"}, {"type": "openScene"}, {"type": "openScene", "session": "side", "placement": "fullScreen"}]"#
                )
                try server.postEvents("/v1/apps/notes/events", #"{"type": "homeButton"}"#)
                // mail is closed while not running: its session waits to be discarded at the next launch.
                try server.postEvents(
                    "/v1/apps/mail/events",
                    #"[{"type": "launch"}, {"type": "openScene"}, {"type": "terminate"}, {"type": "closeScene", "session": "s2"}]"#
                )
                // 30 s later one background scene of notes is 10 s from its disconnect deadline.
                try server.postEvents("/v1/devices/pad/events", #"{"type": "advanceTime", "seconds": 30}"#)
                try server.postEvents("/v1/apps/notes/events", #"{"type": "disconnectScene", "session": "s1"}"#)
                before = try Dictionary(uniqueKeysWithValues: Self.reads.map { ($0, try server.get($0)) })
            }
            let notes = try #require(before["/v1/apps/notes"]?.object["sessions"] as? [[String: Any]])
            #expect(notes.map { $0["state"] as? String } == ["unattached", "background", "background"])
            let mail = try #require(before["/v1/apps/mail"]?.object["sessions"] as? [[String: Any]])
            #expect(mail.map { $0["pendingDiscard"] as? Bool } == [false, true])

            let server = try TestDaemon(store: .sqlite(directory: directory), snapshotEvery: snapshotEvery)
            defer { server.stop() }
            for path in Self.reads {
                let after = try server.get(path)
                #expect(after.text == before[path]?.text, "\(path)")
                #expect(after.header("ETag") == before[path]?.header("ETag"), "\(path)")
            }
            // The restarted device keeps its scene deadlines and pending discards.
            try server.postEvents("/v1/devices/pad/events", #"{"type": "advanceTime", "seconds": 10}"#)
            let sessions = try #require(try server.get("/v1/apps/notes").object["sessions"] as? [[String: Any]])
            #expect(sessions.map { $0["state"] as? String } == ["unattached", "unattached", "unattached"])
            let launch = try server.postEvents("/v1/apps/mail/events", #"{"type": "launch"}"#)
            #expect(launch.entries.contains { $0["selector"] as? String == "application:didDiscardSceneSessions:" })
        }
    }
}
