import Dispatch
import Locking
import Synchronization

/// A parked long poll. It looks again whenever entries arrive for the timeline it watches, and answers at
/// the latest when its wait ends, on its one timer, which is cancelled as soon as it answers. Whatever
/// happens (entries, the timer, a delete, a reset, a drain), it answers exactly once.
package final class Poll: Sendable {
    private struct State: @unchecked Sendable {
        package var answered = false
        package var timer: (any HostTimer)?
    }

    private let state = Protected(State())
    /// What the poll's timer runs on.
    private let clock: any HostClock
    /// Looks at the timeline again: answers through `answer`, or parks this poll again.
    private let look: @Sendable (Poll) -> Void
    /// Tells the service how many poll timers are armed (+1, -1) and that a poll answered.
    private let timerArmed: @Sendable (Int) -> Void
    private let answered: @Sendable () -> Void

    package init(
        clock: any HostClock, look: @escaping @Sendable (Poll) -> Void,
        timerArmed: @escaping @Sendable (Int) -> Void, answered: @escaping @Sendable () -> Void
    ) {
        self.clock = clock
        self.look = look
        self.timerArmed = timerArmed
        self.answered = answered
    }

    package var isWaiting: Bool { state.withLock { !$0.answered } }

    /// Arms the poll's one timer: after `seconds`, `expire` runs (it answers, whatever it finds).
    /// A poll answered before (entries arrived between its parking and this call) gets no timer.
    package func arm(after seconds: Double, expire: @escaping @Sendable (Poll) -> Void) {
        let made = state.withLock { state -> (any HostTimer)? in
            guard !state.answered else { return nil }
            // An answer from here on cancels the timer: it then never fires.
            let timer = clock.makeTimer(on: .global()) { [self] in
                if takeTimer() { expire(self) }
            }
            state.timer = timer
            return timer
        }
        guard let timer = made else { return }
        timerArmed(1)
        timer.schedule(after: seconds)
    }

    /// Entries arrived, or the timeline went away: look again, unless already answered.
    package func wake() {
        if isWaiting { look(self) }
    }

    /// Runs `respond` if the poll has not answered yet, and disarms its timer. Returns whether it ran.
    @discardableResult
    package func answer(_ respond: () -> Void) -> Bool {
        let (first, timer) = state.withLock { state -> (Bool, (any HostTimer)?) in
            defer {
                state.answered = true
                state.timer = nil
            }
            return (!state.answered, state.timer)
        }
        if let timer {
            timer.cancel()
            timerArmed(-1)
        }
        guard first else { return false }
        answered()
        respond()
        return true
    }

    /// Takes the timer as it fires: false if an answer already disarmed it.
    private func takeTimer() -> Bool {
        let timer = state.withLock { state -> (any HostTimer)? in
            defer { state.timer = nil }
            return state.timer
        }
        guard let timer else { return false }
        timer.cancel()
        timerArmed(-1)
        return true
    }
}

extension Array where Element == Poll {
    /// Wakes every poll off the calling thread (the store's completion thread must return quickly).
    func wakeElsewhere() {
        guard !isEmpty else { return }
        DispatchQueue.global().async { for poll in self { poll.wake() } }
    }
}
