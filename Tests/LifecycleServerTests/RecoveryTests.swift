import Foundation
import LifecycleTesting
import TestSupport
import Testing

@Suite struct RecoveryTests {
    /// Reads whose answers must survive a restart unchanged.
    static let reads = [
        "/v1/devices", "/v1/devices/d1", "/v1/apps", "/v1/apps/mail", "/v1/apps/music", "/v1/apps/nav",
        "/v1/devices/d1/timeline?after=3&limit=20", "/v1/devices/d1/timeline?limit=1000",
        "/v1/apps/mail/timeline", "/v1/apps/mail/callbacks", "/v1/apps/mail/notifications",
        "/v1/apps/mail/notifications?delivered=true", "/v1/apps/nav/timeline", "/v1/devices/d2",
    ]

    @Test func aRestartOnTheSameDirectoryServesTheSameAnswersByteForByte() throws {
        try withTemporaryDirectory { directory in
            let before: [String: Reply]
            let firstReplay: Reply
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory))
                defer { server.stop() }
                try server.createDevice(#"{"id": "d1", "iosVersion": "7.0", "passcode": true}"#)
                try server.createDevice(#"{"id": "d2", "iosVersion": "4.0", "suspendDelay": 2}"#)
                try server.createApp(#"{"id": "mail", "device": "d1", "bundleId": "com.example.mail"}"#)
                try server.createApp(
                    #"{"id": "music", "device": "d1", "bundleId": "com.example.music", "info": {"backgroundModes": ["audio"]}}"#
                )
                try server.createApp(#"{"id": "nav", "device": "d2", "bundleId": "com.example.nav"}"#)
                try server.createApp(#"{"id": "gone", "device": "d2", "bundleId": "com.example.gone"}"#)
                #expect(try server.delete("/v1/apps/gone").status == 204)

                // mail suspends and finds changes queued; music plays audio in the background.
                try server.postEvents("/v1/apps/mail/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
                try server.postEvents(
                    "/v1/devices/d1/events",
                    #"[{"type": "change", "kind": "orientation", "value": "landscapeLeft"}, {"type": "change", "kind": "locale", "value": "fr_FR"}]"#
                )
                try server.postEvents(
                    "/v1/apps/music/events",
                    #"[{"type": "launch"}, {"type": "startBackgroundActivity", "mode": "audio"}]"#)
                try server.postEvents(
                    "/v1/devices/d1/events", #"[{"type": "lock"}, {"type": "advanceTime", "seconds": 30}]"#)
                // nav holds a background task that ends by itself later, and the clock moves past part of it.
                try server.postEvents(
                    "/v1/apps/nav/events",
                    #"[{"type": "launch"}, {"type": "beginBackgroundTask", "name": "sync", "duration": 60}]"#)
                try server.postEvents("/v1/apps/nav/events", #"{"type": "homeButton"}"#)
                firstReplay = try server.postEvents(
                    "/v1/devices/d2/events", #"{"type": "advanceTime", "seconds": 20}"#,
                    headers: [("Idempotency-Key", "t1")])
                // A rejected event leaves nothing to recover.
                #expect(try server.post("/v1/apps/mail/events", #"{"type": "memoryWarning"}"#).status == 409)

                before = try Dictionary(uniqueKeysWithValues: Self.reads.map { ($0, try server.get($0)) })
            }
            #expect(
                before["/v1/apps/mail/notifications"]?.items.compactMap { $0["name"] as? String } == [
                    "UIDeviceOrientationDidChangeNotification", "NSCurrentLocaleDidChangeNotification",
                    "UIApplicationProtectedDataWillBecomeUnavailable",
                ])
            #expect((before["/v1/apps/nav"]?.object["backgroundTasks"] as? [Any])?.count == 1)
            #expect(before["/v1/apps/nav"]?.string("state") == "background")

            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            for path in Self.reads {
                let after = try server.get(path)
                let first = try #require(before[path])
                #expect(after.status == first.status, "\(path)")
                #expect(after.text == first.text, "\(path)")
                #expect(after.header("ETag") == first.header("ETag"), "\(path)")
            }
            expectProblem(try server.get("/v1/apps/gone"), status: 404, code: "not-found")

            // The idempotency cache is rebuilt too: the retry replays and applies nothing.
            let replay = try server.postEvents(
                "/v1/devices/d2/events", #"{"type": "advanceTime", "seconds": 20}"#,
                headers: [("Idempotency-Key", "t1")])
            #expect(replay.body == firstReplay.body)
            #expect(replay.header("Idempotent-Replayed") == "true")
            #expect(try server.get("/v1/devices/d2").text == before["/v1/devices/d2"]?.text)

            // The restarted device goes on from where it stopped.
            let later = try server.postEvents("/v1/devices/d2/events", #"{"type": "advanceTime", "seconds": 60}"#)
            #expect(!later.entries.isEmpty)
            let d2 = try server.allEntries("/v1/devices/d2/timeline")
            #expect(seqs(d2) == Array(1...d2.count))
        }
    }
}
