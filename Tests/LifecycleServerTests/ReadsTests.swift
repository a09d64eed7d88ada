import Dispatch
import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleServer
import LifecycleTesting
import TestSupport
import Testing

@Suite struct ReadsTests {
    /// A launched app on a daemon whose clock moves only when `clock` is advanced: a long poll's wait ends then,
    /// never on its own, so whatever answers a poll before is what the test did.
    private func withLaunchedApp(
        historyLimit: Int = 10_000, clock: ManualHostClock = ManualHostClock(), _ body: (TestDaemon) throws -> Void
    ) throws {
        try withDaemon(historyLimit: historyLimit, configure: { $0.clock = clock }) { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            try body(server)
        }
    }

    @Test(arguments: [
        "/v1/apps/a1", "/v1/apps", "/v1/devices/d1", "/v1/devices", "/v1/apps/a1/callbacks", "/v1/apps/a1/timeline",
        "/v1/devices/d1/timeline", "/v1/apps/a1/notifications",
    ])
    func aReadCarriesAnETagThatAnswers304UntilSomethingChanges(path: String) throws {
        try withLaunchedApp { server in
            let first = try server.get(path)
            #expect(first.status == 200)
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
            // Read again (an app's answer is then the kept one): the same answer, with the same fields.
            let kept = try server.get(path)
            #expect(kept.status == 200 && kept.body == first.body)
            #expect(kept.header("ETag") == tag && kept.header("Content-Type") == "application/json")

            let again = try server.get(path, headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == tag)
            #expect(try server.get(path, headers: [("If-None-Match", "\"other\", W/\(tag)")]).status == 304)
            #expect(try server.get(path, headers: [("If-None-Match", "\"other\"")]).status == 200)

            // Home, then a change the now suspended app finds queued: every read above sees something new.
            try server.postEvents("/v1/devices/d1/events", #"{"type": "homeButton"}"#)
            try server.postEvents("/v1/devices/d1/events", #"{"type": "change", "kind": "locale", "value": "fr_FR"}"#)
            let changed = try server.get(path, headers: [("If-None-Match", tag)])
            #expect(changed.status == 200)
            #expect(changed.header("ETag") != nil)
            #expect(changed.header("ETag") != tag)
        }
    }

    @Test func aPageEndsWithTheCursorOfItsLastItem() throws {
        try withLaunchedApp { server in
            let all = try server.get("/v1/devices/d1/timeline?limit=1000")
            let allSeqs = seqs(all.items)
            #expect(allSeqs == Array(1...allSeqs.count))
            let page = try server.get("/v1/devices/d1/timeline?after=2&limit=3")
            #expect(seqs(page.items) == [3, 4, 5])
            #expect(page.int("next") == 5)
            let end = try server.get("/v1/devices/d1/timeline?after=\(allSeqs.count)")
            #expect(end.items.isEmpty)
            #expect(end.int("next") == allSeqs.count)
        }
    }

    @Test func aLongPollIsHeldUntilAnEventArrives() throws {
        try withLaunchedApp { server in
            let next = try #require(try server.get("/v1/apps/a1/callbacks").int("next"))
            let poll = Background { try server.get("/v1/apps/a1/callbacks?after=\(next)&wait=5") }
            server.waitUntilParked(1)
            #expect(!poll.isFinished)
            #expect(try server.post("/v1/devices/d1/events", #"{"type": "homeButton"}"#).status == 200)
            let reply = try poll.join()
            #expect(reply.status == 200)
            // What Home caused, not the empty page of a wait that ran out.
            #expect(selectors(reply.items) == ["applicationWillResignActive:", "applicationDidEnterBackground:"])
            #expect(seqs(reply.items).allSatisfy { $0 > next })
        }
    }

    @Test func aLongPollIgnoresEntriesItDoesNotAskFor() throws {
        try withLaunchedApp { server in
            try server.createApp(#"{"id": "a2", "device": "d1", "bundleId": "com.example.b"}"#)
            let next = try #require(try server.get("/v1/apps/a2/timeline").int("next"))
            let poll = Background { try server.get("/v1/apps/a2/timeline?after=\(next)&wait=5") }
            server.waitUntilParked(1)
            // An entry for a1 only, while a2's poll is parked: the poll stays parked.
            #expect(try server.post("/v1/apps/a1/events", #"{"type": "touch"}"#).status == 200)
            #expect(try server.get("/v1/devices/d1").status == 200)
            #expect(!poll.isFinished)
            server.waitUntilParked(1)
            #expect(try server.post("/v1/apps/a2/events", #"{"type": "launch"}"#).status == 200)
            let reply = try poll.join()
            #expect(!reply.items.isEmpty)
            #expect(reply.items.allSatisfy { $0["app"] as? String == "a2" })
        }
    }

    @Test func aLongPollThatExpiresAnswersAnEmptyPageAfterTheWait() throws {
        let clock = ManualHostClock()
        try withLaunchedApp(clock: clock) { server in
            let next = try #require(try server.get("/v1/apps/a1/callbacks").int("next"))
            let poll = Background { try server.get("/v1/apps/a1/callbacks?after=\(next)&wait=0.6") }
            server.waitUntilParked(1)
            // Not before the wait.
            clock.advance(by: 0.5)
            #expect(server.parkedPolls == 1)
            #expect(!poll.isFinished)
            // At its end, whatever it found: nothing.
            clock.advance(by: 0.1)
            let reply = try poll.join()
            #expect(reply.status == 200)
            #expect(reply.items.isEmpty)
            #expect(reply.int("next") == next)
        }
    }

    @Test func aLongPollWithSomethingToReadAnswersAtOnce() throws {
        // The clock does not move: an answer is not the end of the wait.
        try withLaunchedApp { server in
            let reply = try server.get("/v1/apps/a1/callbacks?after=0&wait=5")
            #expect(reply.items.count == 3)
        }
    }

    @Test func aCursorOlderThanWhatIsRetainedIsGoneWithTheOldestSeq() throws {
        try withLaunchedApp(historyLimit: 5) { server in
            for _ in 0..<3 {
                try server.postEvents(
                    "/v1/devices/d1/events", #"[{"type": "homeButton"}, {"type": "switchApp", "to": "a1"}]"#)
            }
            let retained = try server.get("/v1/devices/d1/timeline")
            #expect(retained.items.count == 5)
            let oldest = try #require(seqs(retained.items).first)
            #expect(oldest > 1)

            let gone = try server.get("/v1/devices/d1/timeline?after=0")
            expectProblem(gone, status: 410, code: "gone")
            #expect(gone.int("oldestSeq") == oldest)
            expectProblem(try server.get("/v1/apps/a1/timeline?after=1"), status: 410, code: "gone")
            // From just before the oldest one retained, nothing is missing.
            let fromOldest = try server.get("/v1/devices/d1/timeline?after=\(oldest - 1)")
            #expect(fromOldest.status == 200)
            #expect(seqs(fromOldest.items) == seqs(retained.items))
        }
    }

    @Test func theNotificationsQueueShowsWhatASuspendedAppWillGetCoalesced() throws {
        try withLaunchedApp { server in
            try server.postEvents("/v1/devices/d1/events", #"{"type": "homeButton"}"#)
            for orientation in ["landscapeLeft", "portraitUpsideDown", "landscapeRight"] {
                try server.postEvents(
                    "/v1/devices/d1/events", #"{"type": "change", "kind": "orientation", "value": "\#(orientation)"}"#)
            }
            let queue = try server.get("/v1/apps/a1/notifications")
            #expect(queue.items.map { $0["name"] as? String } == ["UIDeviceOrientationDidChangeNotification"])
            #expect((queue.items.first?["coalesced"] as? NSNumber)?.intValue == 3)
            let delivered = try server.get("/v1/apps/a1/notifications?delivered=true")
            #expect(delivered.items.allSatisfy { $0["kind"] as? String == "notification" })
            #expect(
                !delivered.items.contains { $0["name"] as? String == "UIDeviceOrientationDidChangeNotification" })
        }
    }
}

/// Reads of an app serve the snapshot encoded last time while nothing it shows has changed.
@Suite struct AppSnapshotReuseTests {
    @Test func aChangeWithoutEntriesAndTheMovingClockBothShowInTheNextRead() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
            try server.createApp(
                #"{"id": "music", "device": "d", "bundleId": "com.example.music", "info": {"backgroundModes": ["audio"]}}"#
            )
            try server.postEvents("/v1/apps/music/events", #"[{"type": "launch"}, {"type": "beginBackgroundTask"}]"#)
            let first = try server.get("/v1/apps/music")
            #expect(try server.get("/v1/apps/music").body == first.body)
            // Starting audio records no entry, yet the snapshot must show it.
            try server.postEvents("/v1/apps/music/events", #"{"type": "startBackgroundActivity", "mode": "audio"}"#)
            let playing = try server.get("/v1/apps/music")
            #expect(playing.object["backgroundActivities"] as? [String] == ["audio"])
            #expect(playing.header("ETag") != first.header("ETag"))
            try server.postEvents("/v1/apps/music/events", #"{"type": "homeButton"}"#)
            #expect((try server.get("/v1/apps/music").object["backgroundTimeRemaining"] as? Double) == 180)
            // Time moving on the device changes what the app shows, though the app itself did not change.
            try server.postEvents("/v1/devices/d/events", #"{"type": "advanceTime", "seconds": 30}"#)
            #expect((try server.get("/v1/apps/music").object["backgroundTimeRemaining"] as? Double) == 150)
        }
    }
}
