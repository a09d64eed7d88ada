import Dispatch
import LifecycleHosting
import LifecycleTesting
import Locking
import TestSupport
import Testing

/// A long poll answers exactly once, whatever order its answer and its timer come in.
@Suite struct PollTests {
    /// A poll answered (by entries, a delete, a drain) between its parking and the arming of its timer: it
    /// arms no timer, so it never expires. On the system's clock too, where a Dispatch source made and never
    /// activated would trap the process as it is released.
    @Test(arguments: [true, false])
    func aPollAnsweredBeforeItsTimerIsArmedNeitherExpiresNorTraps(manual: Bool) throws {
        let clock: any HostClock = manual ? ManualHostClock() : SystemHostClock()
        let armed = Protected(0)
        let expired = Protected(0)
        for _ in 0..<100 {
            let poll = Poll(
                clock: clock, look: { _ in }, timerArmed: { delta in armed.withLock { $0 += delta } }, answered: {})
            #expect(poll.answer {})
            poll.arm(after: 0.001) { _ in expired.withLock { $0 += 1 } }
        }
        (clock as? ManualHostClock)?.advance(by: 1)
        #expect(expired.get() == 0)
        #expect(armed.get() == 0)
        #expect((clock as? ManualHostClock)?.armedTimers ?? 0 == 0)
    }

    @Test func anArmedPollExpiresOnceAndAnAnswerAfterwardsDoesNotRun() throws {
        let clock = ManualHostClock()
        let expired = Protected(0)
        let armed = Protected(0)
        let poll = Poll(
            clock: clock, look: { _ in }, timerArmed: { delta in armed.withLock { $0 += delta } }, answered: {})
        poll.arm(after: 0.5) { poll in
            poll.answer {}
            expired.withLock { $0 += 1 }
        }
        #expect(armed.get() == 1)
        clock.advance(by: 0.4)
        #expect(expired.get() == 0)
        clock.advance(by: 0.2)
        #expect(expired.get() == 1)
        #expect(!poll.answer {})
        #expect(armed.get() == 0)
        clock.advance(by: 10)
        #expect(expired.get() == 1)
    }
}
