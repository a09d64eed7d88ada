import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleServer
import LifecycleTesting
import TestSupport
import Testing

/// A realtime clock follows the wall clock times `speed`, and its deadlines fire by themselves. The wall clock
/// is a `ManualHostClock` the test moves: nothing here waits for time to pass.
@Suite struct RealtimeClockTests {
    @Test func aBackgroundTaskEndsAndTheAppSuspendsWithoutAnyRequest() throws {
        let clock = ManualHostClock()
        try withDaemon(configure: { $0.clock = clock }) { server in
            // Speed 100: the 10 simulated seconds of the task take 0.1 s of wall time.
            try server.createDevice(#"{"id": "rt", "iosVersion": "7.0", "clock": {"mode": "realtime", "speed": 100}}"#)
            try server.createApp(#"{"id": "sync", "device": "rt", "bundleId": "com.example.sync"}"#)
            try server.postEvents(
                "/v1/apps/sync/events",
                #"[{"type": "launch"}, {"type": "beginBackgroundTask", "name": "upload", "duration": 10}, {"type": "homeButton"}]"#
            )
            clock.advance(by: 0.09)
            #expect(try server.get("/v1/apps/sync").string("state") == "background")
            // The timer of the task's deadline fires as the clock passes it, before `advance` returns; the
            // timeline holds what it journaled once that is durable.
            clock.advance(by: 0.02)
            #expect(try server.get("/v1/apps/sync").string("state") == "suspended")
            var entries: [[String: Any]] = []
            #expect(
                try eventually {
                    entries = try server.allEntries("/v1/apps/sync/timeline")
                    return entries.last?["kind"] as? String == "state" && entries.last?["to"] as? String == "suspended"
                })
            func time(of event: String) throws -> Double {
                let entry = try #require(
                    entries.first { $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == event })
                return try #require(entry["time"] as? Double)
            }
            // The task began when the clock read 0 and ended by itself at its deadline, 10 simulated seconds on.
            #expect(try time(of: "began") == 0)
            #expect(try time(of: "ended") == 10)
        }
    }

    @Test func readsShowTheClockMovingBetweenEvents() throws {
        let clock = ManualHostClock()
        try withDaemon(configure: { $0.clock = clock }) { server in
            try server.createDevice(#"{"id": "rt", "clock": {"mode": "realtime", "speed": 100}}"#)
            let first = try #require(try server.get("/v1/devices/rt").object["time"] as? Double)
            clock.advance(by: 0.1)
            let second = try #require(try server.get("/v1/devices/rt").object["time"] as? Double)
            #expect(first == 0)
            // Wall seconds since 1970 are exact to some 0.2 µs: 20 µs of the device's time at speed 100.
            #expect(abs(second - 10) < 1e-3, "the clock read \(second) 0.1 s later at speed 100")
        }
    }

    @Test func deadlinesThatPassedWhileTheDaemonWasDownFireInOrderOnRestart() throws {
        try withTemporaryDirectory { directory in
            let stopped = ManualHostClock()
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory), configure: { $0.clock = stopped })
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
            // Started again 3.5 s of wall time later.
            let server = try TestDaemon(
                store: .sqlite(directory: directory), configure: { $0.clock = ManualHostClock(now: stopped.now + 3.5) })
            defer { server.stop() }
            #expect(try server.get("/v1/apps/a").string("state") == "suspended")
            #expect(try server.get("/v1/apps/b").string("state") == "suspended")
            let timeline = try server.allEntries("/v1/devices/rt/timeline")
            let ends = timeline.filter {
                $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == "ended"
            }
            #expect(ends.map { $0["app"] as? String } == ["a", "b"])
            // Each task began when the clock read 0 and ends exactly its duration later.
            let began = timeline.filter {
                $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == "began"
            }
            #expect(began.map { $0["app"] as? String } == ["a", "b"])
            #expect(began.compactMap { $0["time"] as? Double } == [0, 0])
            #expect(ends.compactMap { $0["time"] as? Double } == [20, 30])
            let seqs = seqs(timeline)
            #expect(seqs == Array(1...seqs.count))
        }
    }
}
