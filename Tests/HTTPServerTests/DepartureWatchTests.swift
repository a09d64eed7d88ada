import Dispatch
import Locking
import TestSupport
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// Parked sockets are watched for departure only once parked for the watch's delay: short parks cost no
/// `epoll_ctl`, and a client that leaves a long park is still noticed. The event loop tells the watch what time
/// it is (`registerOverdue(now:)`): the tests tell it a later time rather than sleeping until then.
@Suite struct DepartureWatchTests {
    /// A connected pair of stream sockets: the first plays the parked connection, the second its client.
    private func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func aSocketIsRegisteredOnlyOnceItHasBeenParkedForTheDelay() throws {
        let watch = try DepartureWatch(delay: .milliseconds(200))
        let (parked, client) = try socketPair()
        defer { close(parked) }
        let departed = Protected(0)
        watch.watch(parked) { departed.update { $0 += 1 } }
        close(client)
        // Not yet due: not registered, so the departure is not seen.
        let due = try #require(watch.registerOverdue(now: .now))
        #expect(due > MonotonicTime.now)
        watch.answerDeparted()
        #expect(departed.get() == 0)
        // Once due, registered; the hang-up that already happened is reported at once.
        #expect(watch.registerOverdue(now: due) == nil)
        watch.answerDeparted()
        #expect(departed.get() == 1)
        watch.unwatch(parked)
    }

    /// A socket unwatched before the delay: its client's departure runs no action, and nothing is left
    /// waiting to be registered. (That no `epoll_ctl` is made cannot be seen here; `strace -c` showed it.)
    @Test func aSocketUnwatchedBeforeTheDelayHearsNothingAndLeavesNothingPending() throws {
        let watch = try DepartureWatch(delay: .milliseconds(50))
        let (parked, client) = try socketPair()
        defer { close(parked) }
        let departed = Protected(0)
        watch.watch(parked) { departed.update { $0 += 1 } }
        watch.unwatch(parked)
        close(client)
        #expect(watch.registerOverdue(now: .now + .milliseconds(80)) == nil)
        watch.answerDeparted()
        #expect(departed.get() == 0)
    }
}

/// The event loop's clock: readings move forward, and a wait until a later reading is rounded up to whole
/// milliseconds, never to 0 while the reading is still ahead.
@Suite struct MonotonicTimeTests {
    @Test func aWaitIsRoundedUpAndNothingWhenItPassed() {
        let start = MonotonicTime(nanoseconds: 5_000_000_000)
        #expect(start.milliseconds(until: start) == 0)
        #expect(start.milliseconds(until: MonotonicTime(nanoseconds: 4_000_000_000)) == 0)
        #expect(start.milliseconds(until: MonotonicTime(nanoseconds: 5_000_000_001)) == 1)
        #expect(start.milliseconds(until: start + .milliseconds(250)) == 250)
        #expect(start.milliseconds(until: MonotonicTime(nanoseconds: 5_250_000_001)) == 251)
        #expect((start + .seconds(30)).nanoseconds == 35_000_000_000)
        #expect(MonotonicTime.Interval.milliseconds(-5).nanoseconds == 0)
    }

    @Test func readingsMoveForward() {
        let first = MonotonicTime.now
        // The sleep is what is measured: the readings must move by at least as much.
        usleep(2_000)
        let second = MonotonicTime.now
        #expect(second > first)
        #expect(second.nanoseconds - first.nanoseconds >= 2_000_000)
    }
}
