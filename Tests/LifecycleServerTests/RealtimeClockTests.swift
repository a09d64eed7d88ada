import Foundation
import Testing

/// A realtime clock follows the wall clock times `speed`, and its deadlines fire by themselves.
@Suite struct RealtimeClockTests {
    @Test func aBackgroundTaskEndsAndTheAppSuspendsWithoutAnyRequest() throws {
        try withLiveServer { server in
            // Speed 100: the 10 simulated seconds of the task take 0.1 s of wall time.
            try server.createDevice(#"{"id": "rt", "iosVersion": "7.0", "clock": {"mode": "realtime", "speed": 100}}"#)
            try server.createApp(#"{"id": "sync", "device": "rt", "bundleId": "com.example.sync"}"#)
            try server.postEvents(
                "/v1/apps/sync/events",
                #"[{"type": "launch"}, {"type": "beginBackgroundTask", "name": "upload", "duration": 10}, {"type": "homeButton"}]"#
            )
            let deadline = Date().addingTimeInterval(5)
            var state = try server.get("/v1/apps/sync").string("state")
            while state != "suspended" && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
                state = try server.get("/v1/apps/sync").string("state")
            }
            #expect(state == "suspended")
            let entries = try server.allEntries("/v1/apps/sync/timeline")
            let ended = try #require(
                entries.first { $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == "ended" })
            // The task began at about 0 and ended by itself at its deadline, 10 simulated seconds later.
            let endedAt = try #require(ended["time"] as? Double)
            #expect(endedAt >= 10 && endedAt < 60)
            #expect(entries.last?["kind"] as? String == "state" && entries.last?["to"] as? String == "suspended")
        }
    }

    @Test func readsShowTheClockMovingBetweenEvents() throws {
        try withLiveServer { server in
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
                let server = try LiveServer(store: .sqlite(directory: directory))
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
            let server = try LiveServer(store: .sqlite(directory: directory))
            defer { server.stop() }
            let deadline = Date().addingTimeInterval(5)
            while try server.get("/v1/apps/b").string("state") != "suspended" && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            #expect(try server.get("/v1/apps/a").string("state") == "suspended")
            #expect(try server.get("/v1/apps/b").string("state") == "suspended")
            let timeline = try server.allEntries("/v1/devices/rt/timeline")
            let ends = timeline.filter {
                $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == "ended"
            }
            #expect(ends.map { $0["app"] as? String } == ["a", "b"])
            #expect(ends.compactMap { $0["time"] as? Double }.map { $0.rounded() } == [20, 30])
            let seqs = seqs(timeline)
            #expect(seqs == Array(1...seqs.count))
        }
    }
}
