import Foundation
import LifecycleTesting
import TestSupport
import Testing

/// A realtime clock follows the wall clock times `speed`, and its deadlines fire by themselves.
@Suite struct RealtimeClockTests {
    @Test func aBackgroundTaskEndsAndTheAppSuspendsWithoutAnyRequest() throws {
        try withDaemon { server in
            // Speed 100: the 10 simulated seconds of the task take 0.1 s of wall time.
            try server.createDevice(#"{"id": "rt", "iosVersion": "7.0", "clock": {"mode": "realtime", "speed": 100}}"#)
            try server.createApp(#"{"id": "sync", "device": "rt", "bundleId": "com.example.sync"}"#)
            try server.postEvents(
                "/v1/apps/sync/events",
                #"[{"type": "launch"}, {"type": "beginBackgroundTask", "name": "upload", "duration": 10}, {"type": "homeButton"}]"#
            )
            // Reads project a realtime clock ahead of the timer; the timeline holds what the timer journaled.
            var entries: [[String: Any]] = []
            #expect(
                try eventually {
                    entries = try server.allEntries("/v1/apps/sync/timeline")
                    return entries.last?["kind"] as? String == "state" && entries.last?["to"] as? String == "suspended"
                })
            #expect(try server.get("/v1/apps/sync").string("state") == "suspended")
            func time(of event: String) throws -> Double {
                let entry = try #require(
                    entries.first { $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == event })
                return try #require(entry["time"] as? Double)
            }
            // The task ended by itself at its deadline, exactly 10 simulated seconds after it began (when it
            // began depends on how fast the requests ran: the clock moves 100 simulated seconds a second).
            let began = try time(of: "began")
            let endedAt = try time(of: "ended")
            #expect(abs(endedAt - (began + 10)) < 1e-6, "began at \(began), ended at \(endedAt)")
            #expect(entries.last?["kind"] as? String == "state" && entries.last?["to"] as? String == "suspended")
        }
    }

    @Test func readsShowTheClockMovingBetweenEvents() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "rt", "clock": {"mode": "realtime", "speed": 100}}"#)
            let first = try #require(try server.get("/v1/devices/rt").object["time"] as? Double)
            Thread.sleep(forTimeInterval: 0.1)
            let second = try #require(try server.get("/v1/devices/rt").object["time"] as? Double)
            #expect(second - first >= 5)
        }
    }

    @Test func deadlinesThatPassedWhileTheDaemonWasDownFireInOrderOnRestart() throws {
        try withTemporaryDirectory { directory in
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory))
                defer { server.stop() }
                try server.createDevice(
                    #"{"id": "rt", "iosVersion": "7.0", "clock": {"mode": "realtime", "speed": 10}}"#)
                try server.createApp(#"{"id": "a", "device": "rt", "bundleId": "com.example.a"}"#)
                try server.createApp(#"{"id": "b", "device": "rt", "bundleId": "com.example.b"}"#)
                // a's task ends 20 simulated s (2 s of wall time) from now, b's 30 s: both after the stop.
                try server.postEvents(
                    "/v1/apps/a/events", #"[{"type": "launch"}, {"type": "beginBackgroundTask", "duration": 20}]"#)
                try server.postEvents(
                    "/v1/apps/b/events",
                    #"[{"type": "launch"}, {"type": "beginBackgroundTask", "duration": 30}, {"type": "homeButton"}]"#)
                #expect(try server.get("/v1/apps/a").string("state") == "background")
                #expect(try server.get("/v1/apps/b").string("state") == "background")
            }
            Thread.sleep(forTimeInterval: 3.5)
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            #expect(try eventually { try server.get("/v1/apps/b").string("state") == "suspended" })
            #expect(try server.get("/v1/apps/a").string("state") == "suspended")
            #expect(try server.get("/v1/apps/b").string("state") == "suspended")
            let timeline = try server.allEntries("/v1/devices/rt/timeline")
            let ends = timeline.filter {
                $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == "ended"
            }
            #expect(ends.map { $0["app"] as? String } == ["a", "b"])
            // Each task ends exactly its duration after it began (when it began depends on how fast the
            // requests ran; the clock moves 10 simulated seconds per wall second).
            let began = timeline.filter {
                $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == "began"
            }
            #expect(began.map { $0["app"] as? String } == ["a", "b"])
            let expectedEnds = zip(began.compactMap { $0["time"] as? Double }, [20.0, 30.0]).map { $0 + $1 }
            let endTimes = ends.compactMap { $0["time"] as? Double }
            #expect(endTimes.count == 2)
            #expect(zip(endTimes, expectedEnds).allSatisfy { abs($0 - $1) < 1e-6 }, "\(endTimes) \(expectedEnds)")
            let seqs = seqs(timeline)
            #expect(seqs == Array(1...seqs.count))
        }
    }
}
