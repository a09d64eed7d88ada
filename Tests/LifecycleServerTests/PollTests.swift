import Dispatch
import LifecycleHosting
import LifecycleTesting
import Locking
import TestSupport
import Testing

/// A long poll answers exactly once, whatever order its answer and its timer come in.
@Suite struct PollTests {
    /// A poll answered (by entries, a delete, a drain) between its parking and the arming of its timer:
    /// the timer it made is never armed, and must still be disposed of as libdispatch requires (releasing
    /// a source never activated traps the process).
    @Test func aPollAnsweredBeforeItsTimerIsArmedNeitherExpiresNorTraps() throws {
        let armed = Protected(0)
        let expired = Protected(0)
        for _ in 0..<100 {
            let poll = Poll(look: { _ in }, timerArmed: { delta in armed.withLock { $0 += delta } }, answered: {})
            #expect(poll.answer {})
            poll.arm(after: 0.001) { _ in expired.withLock { $0 += 1 } }
        }
        let wait = DispatchSemaphore(value: 0)
        _ = wait.wait(timeout: .now() + 0.05)
        #expect(expired.get() == 0)
        #expect(armed.get() == 0)
    }

    @Test func anArmedPollExpiresOnceAndAnAnswerAfterwardsDoesNotRun() throws {
        let expired = DispatchSemaphore(value: 0)
        let armed = Protected(0)
        let poll = Poll(look: { _ in }, timerArmed: { delta in armed.withLock { $0 += delta } }, answered: {})
        poll.arm(after: 0.001) { poll in
            poll.answer {}
            expired.signal()
        }
        #expect(expired.wait(timeout: .now() + 10) == .success)
        #expect(!poll.answer {})
        #expect(armed.get() == 0)
    }
}
