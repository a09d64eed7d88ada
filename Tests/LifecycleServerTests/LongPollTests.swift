import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleTesting
import Synchronization
import TestSupport
import Testing

@testable import LifecycleServer

/// Parked long polls: each has one timer however often it looks again, and only entries for the timeline
/// it watches wake it.
@Suite struct LongPollTests {
    static func gauges(_ server: TestDaemon) -> (parked: Int, timers: Int) {
        (server.service.parked.load(ordering: .relaxed), server.service.pollTimers.load(ordering: .relaxed))
    }

    @Test func aPollBesideABusyAppKeepsOneTimerAndAnswersWhenItsOwnAppMoves() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "quiet", "device": "d", "bundleId": "com.example.quiet"}"#)
            try server.createApp(#"{"id": "busy", "device": "d", "bundleId": "com.example.busy"}"#)
            try server.postEvents("/v1/apps/busy/events", #"{"type": "launch"}"#)
            let poll = Background { try server.get("/v1/apps/quiet/timeline?after=0&wait=20") }
            #expect(eventually { Self.gauges(server) == (1, 1) })
            for _ in 0..<50 {
                try server.postEvents(
                    "/v1/apps/busy/events",
                    #"[{"type": "memoryWarning"}, {"type": "homeButton"}, {"type": "activate"}]"#)
                #expect(Self.gauges(server) == (1, 1))
            }
            try server.postEvents("/v1/apps/quiet/events", #"{"type": "launch"}"#)
            let reply = try poll.join()
            #expect(reply.status == 200)
            #expect(reply.items.allSatisfy { $0["app"] as? String == "quiet" })
            #expect(!reply.items.isEmpty)
            #expect(eventually { Self.gauges(server) == (0, 0) })
        }
    }

    @Test func aPollWhoseFilterFindsNothingParksAgainOnItsOneTimer() throws {
        let clock = ManualHostClock()
        try withDaemon(configure: { $0.clock = clock }) { server in
            try server.createApp(#"{"id": "a", "bundleId": "com.example.a"}"#)
            try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
            let next = try #require(try server.get("/v1/apps/a/timeline").int("next"))
            // Touches reach the active app as run-loop entries, not callbacks: the callbacks poll wakes for
            // each, finds nothing, and parks again on the same timer.
            let poll = Background { try server.get("/v1/apps/a/callbacks?after=\(next)&wait=1") }
            #expect(eventually { Self.gauges(server) == (1, 1) })
            for _ in 0..<3 {
                let touch = try server.postEvents("/v1/apps/a/events", #"{"type": "touch"}"#)
                #expect(!touch.entries.isEmpty)
                #expect(Self.gauges(server).timers == 1)
            }
            // The end of its wait: it answers with what it finds.
            clock.advance(by: 1)
            let reply = try poll.join()
            #expect(reply.status == 200)
            #expect(reply.items.isEmpty)
            #expect(eventually { Self.gauges(server) == (0, 0) })
        }
    }
}
