import Dispatch
package import LifecycleCore
import Synchronization

/// The callbacks of a device's live apps answered over HTTP (LIFECYCLE §13): a callback no in-process delegate
/// answers is published here, on the device's queue, which then waits, up to `timeout` seconds of wall-clock
/// time, for `give` to hand it its answer. Past the timeout the callback hangs (`CallbackAnswer.hang`). Only the
/// device's own queue waits: reads and other devices go on. Readers see the pending callback through `pending`
/// and are woken (their long poll looks again) as one is published.
package final class PendingCallbacks: Sendable {
    /// A callback waiting for its answer.
    package struct Pending: Sendable {
        /// The callback's number on its device, counted from 1 since the host was made: what an answer names.
        package var id: Int
        package var callback: PendingCallback
        /// Wall-clock seconds since 1970 at which the callback stops waiting and hangs.
        package var deadline: Double
    }

    /// Why an answer was not taken.
    package enum Refusal: Error, Equatable {
        /// Nothing of the app is pending (never was, answered already, or its time ran out).
        case nothingPending
        /// Another callback of the app is pending: the answer names `pending`, not the one given.
        case otherCallback(pending: Int)
    }

    private struct State {
        var pending: Pending?
        var answer: CallbackAnswer?
        var lastID = 0
        var polls: [Poll] = []
        /// Callbacks that got no answer in time, since the host was made.
        var timedOut = 0

        /// The callback of `app` still waiting for its answer.
        func waiting(app: String) -> Pending? {
            guard answer == nil, let pending, pending.callback.app == app else { return nil }
            return pending
        }
    }

    private let state = Mutex(State())
    /// Signalled (under the lock) when an answer is given.
    private let answered = DispatchSemaphore(value: 0)
    private let clock: any HostClock

    package init(clock: any HostClock) { self.clock = clock }

    /// The callback of app `app` waiting for its answer, if any: one answered already is not shown, even before
    /// the device's queue has taken its answer (a client reading again at once would answer it twice).
    package func pending(app: String) -> Pending? {
        state.withLock { $0.waiting(app: app) }
    }

    /// The callback of app `app` waiting for its answer; if none, `park` is asked for a poll woken when the next
    /// callback of the device is published (it looks again).
    package func pending(app: String, orPark park: () -> Poll?) -> Pending? {
        state.withLock { state in
            if let pending = state.waiting(app: app) { return pending }
            if let poll = park() { state.polls.append(poll) }
            return nil
        }
    }

    /// Hands `answer` to callback `id` of app `app`, and the device's queue goes on with it; nil when taken, else
    /// why not.
    package func give(_ answer: CallbackAnswer, to id: Int, app: String) -> Refusal? {
        state.withLock { state in
            guard let pending = state.pending, pending.callback.app == app, state.answer == nil else {
                return .nothingPending
            }
            guard pending.id == id else { return .otherCallback(pending: pending.id) }
            state.answer = answer
            answered.signal()
            return nil
        }
    }

    /// How many callbacks got no answer in time.
    package var timedOut: Int { state.withLock { $0.timedOut } }

    /// Publishes `callback` and waits, on the calling (device's) queue, for its answer, at most `timeout` seconds.
    func ask(_ callback: PendingCallback, timeout: Double) -> CallbackAnswer {
        let polls = state.withLock { state -> [Poll] in
            state.lastID += 1
            state.pending = Pending(id: state.lastID, callback: callback, deadline: clock.now + timeout)
            state.answer = nil
            defer { state.polls = [] }
            return state.polls
        }
        polls.wakeElsewhere()
        let arrived = answered.wait(timeout: .now() + .nanoseconds(Int(min(timeout, 86_400) * 1e9))) == .success
        return state.withLock { state in
            defer {
                state.pending = nil
                state.answer = nil
            }
            guard let answer = state.answer else {
                state.timedOut += 1
                return .hang
            }
            // An answer given as the wait ran out has signalled: take the signal, so the next wait starts clear.
            if !arrived { answered.wait() }
            return answer
        }
    }
}
