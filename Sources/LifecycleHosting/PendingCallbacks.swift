import Dispatch
package import LifecycleCore
package import Locking

/// The callbacks of a device's live apps answered over HTTP (LIFECYCLE §13): a callback no in-process delegate
/// answers is published here, on the device's queue, which then waits, up to `timeout` seconds of wall-clock
/// time, for `give` to hand it its answer. Past the timeout the callback hangs (`CallbackAnswer.hang`). Only the
/// device's own queue waits: reads and other devices go on. Readers see the pending callback through `pending`
/// and are woken (their long poll looks again) as one is published; the device's event streams are woken as
/// one is published and as it ends (`news`).
///
/// An app being deleted (or its device, or the daemon draining) waits on nobody: `abandon` ends its wait at
/// once, and every callback it asks until the deletion is applied hangs without being published.
package final class PendingCallbacks: Sendable {
    /// A callback waiting for its answer.
    package struct Pending: Sendable {
        /// The callback's number on its device, counted from 1 since the host was made: what an answer names.
        package var id: Int
        package var callback: PendingCallback
        /// Wall-clock seconds since 1970 at which the callback stops waiting and hangs.
        package var deadline: Double
    }

    /// How a pending callback ended.
    package enum Outcome: String, Sendable {
        /// A client's answer was taken.
        case answered
        /// No answer came before its deadline: it hung.
        case timedOut
        /// Its app or device was being deleted, or the daemon drained: it hung at once.
        case abandoned
    }

    /// Why an answer was not taken.
    package enum Refusal: Error, Equatable {
        /// Nothing of the app is pending (never was, answered already, or its time ran out).
        case nothingPending
        /// Another callback of the app is pending: the answer names `pending`, not the one given.
        case otherCallback(pending: Int)
    }

    /// What a read of the pending callback finds.
    package enum Look: Sendable {
        case pending(Pending)
        /// Nothing pending; `parked`: the read's poll waits for the next callback (never while draining).
        case none(parked: Bool)
        /// The app (or its device) is being deleted: it will ask nothing more.
        case deleting
    }

    /// What has happened since an event stream announced `announced` (nil: nothing announced, or ended).
    package struct News: Sendable {
        /// The callback announced, now ended: its id and outcome (nil when no longer remembered).
        package var ended: (id: Int, outcome: Outcome?)?
        /// A callback waiting now that was not announced.
        package var pending: Pending?
    }

    /// Callbacks whose outcome is remembered for the streams that announced them.
    static let rememberedOutcomes = 64

    private struct State {
        var pending: Pending?
        /// Whether `pending` still waits: no answer taken, not abandoned, not timed out.
        var open = false
        var answer: CallbackAnswer?
        /// Whether the semaphore was signalled for the callback under way (an answer, or its abandonment).
        var signalled = false
        var lastID = 0
        var polls: [Poll] = []
        /// Callbacks that got no answer in time, since the host was made.
        var timedOut = 0
        /// Apps being deleted; `everything` once the device is deleted or the daemon drains.
        var abandoned: Set<String> = []
        var abandonedAll = false
        /// Whether the device is being deleted (reads of its apps' callbacks answer `deleting`).
        var deleting = false
        /// The latest callbacks' outcomes, oldest first.
        var outcomes: [(id: Int, outcome: Outcome)] = []

        /// The callback of `app` still waiting for its answer.
        func waiting(app: String) -> Pending? {
            guard open, let pending, pending.callback.app == app else { return nil }
            return pending
        }

        func isAbandoned(_ app: String) -> Bool { abandonedAll || abandoned.contains(app) }

        mutating func settle(_ outcome: Outcome) {
            guard open, let pending else { return }
            open = false
            outcomes.append((pending.id, outcome))
            if outcomes.count > PendingCallbacks.rememberedOutcomes { outcomes.removeFirst() }
        }
    }

    // The lock box ThreadSanitizer follows (it took `Synchronization.Mutex` here for races).
    private let state = Protected(State())
    /// Signalled (under the lock) when an answer is given or the callback abandoned.
    private let answered = DispatchSemaphore(value: 0)
    private let clock: any HostClock
    /// The device as readers see it: its event streams are woken through its watchers.
    private let published: Protected<PublishedDevice>?

    package init(clock: any HostClock, published: Protected<PublishedDevice>? = nil) {
        self.clock = clock
        self.published = published
    }

    /// The callback of app `app` waiting for its answer, if any: one answered already is not shown, even before
    /// the device's queue has taken its answer (a client reading again at once would answer it twice).
    package func pending(app: String) -> Pending? {
        state.withLock { $0.waiting(app: app) }
    }

    /// The callback of app `app` waiting for its answer; if none, `park` is asked for a poll woken when the next
    /// callback of the device is published, or the app's deletion begins (it looks again).
    package func look(app: String, orPark park: () -> Poll?) -> Look {
        // An app whose deletion has applied asks nothing more: a read woken by the deletion's start may look
        // again only after it applied and its id was readmitted (`readmit` wakes any read parked meanwhile).
        if let published, published.withLock({ $0.device.app(app) == nil }) { return .deleting }
        return state.withLock { state in
            if state.deleting || state.abandoned.contains(app) { return .deleting }
            if let pending = state.waiting(app: app) { return .pending(pending) }
            // A draining daemon parks no read: it answers them all.
            guard !state.abandonedAll, let poll = park() else { return .none(parked: false) }
            state.polls.append(poll)
            return .none(parked: true)
        }
    }

    /// Hands `answer` to callback `id` of app `app`, and the device's queue goes on with it; nil when taken, else
    /// why not.
    package func give(_ answer: CallbackAnswer, to id: Int, app: String) -> Refusal? {
        let refusal = state.withLock { state -> Refusal? in
            guard let pending = state.waiting(app: app) else { return .nothingPending }
            guard pending.id == id else { return .otherCallback(pending: pending.id) }
            state.answer = answer
            state.settle(.answered)
            state.signalled = true
            answered.signal()
            return nil
        }
        if refusal == nil { wakeStreams(of: app) }
        return refusal
    }

    /// Stops waiting for answers: for app `app` (nil: every app of the device) as its deletion begins
    /// (`deleting`), or for every app as the daemon drains. The callback waiting now hangs at once, and so does
    /// every one asked from now on, unpublished, until `readmit(app)`; reads parked on the app look again.
    package func abandon(app: String?, deleting: Bool) {
        let (polls, abandonedApp) = state.withLock { state -> ([Poll], String?) in
            if let app { state.abandoned.insert(app) } else { state.abandonedAll = true }
            if deleting && app == nil { state.deleting = true }
            var abandonedApp: String?
            if let pending = state.pending, state.open, state.isAbandoned(pending.callback.app) {
                state.settle(.abandoned)
                state.signalled = true
                answered.signal()
                abandonedApp = pending.callback.app
            }
            defer { state.polls = [] }
            return (state.polls, abandonedApp)
        }
        polls.wakeElsewhere()
        if let abandonedApp { wakeStreams(of: abandonedApp) }
    }

    /// App `app`'s deletion was applied (or refused): an app of that id added later waits for answers again.
    package func readmit(_ app: String) {
        let polls = state.withLock { state -> [Poll] in
            state.abandoned.remove(app)
            defer { state.polls = [] }
            return state.polls
        }
        // A read that parked between the deletion's start and now looks again, and finds the app gone.
        polls.wakeElsewhere()
    }

    /// How many callbacks got no answer in time.
    package var timedOut: Int { state.withLock { $0.timedOut } }

    /// What an event stream that announced `announced` (of `app`, nil: any app of the device) has to say now.
    package func news(for app: String?, announced: Int?) -> News {
        state.withLock { state in
            var news = News()
            let current = state.pending.flatMap { pending in
                state.open && (app == nil || pending.callback.app == app) ? pending : nil
            }
            if let announced, current?.id != announced {
                let outcome = state.outcomes.last { $0.id == announced }?.outcome
                news.ended = (announced, outcome)
            }
            if let current, current.id != announced { news.pending = current }
            return news
        }
    }

    /// Publishes `callback` and waits, on the calling (device's) queue, for its answer, at most `timeout` seconds;
    /// a callback of an app being deleted hangs at once.
    func ask(_ callback: PendingCallback, timeout: Double) -> CallbackAnswer {
        let polls = state.withLock { state -> [Poll]? in
            guard !state.isAbandoned(callback.app) else { return nil }
            state.lastID += 1
            state.pending = Pending(id: state.lastID, callback: callback, deadline: clock.now + timeout)
            state.open = true
            state.answer = nil
            state.signalled = false
            defer { state.polls = [] }
            return state.polls
        }
        guard let polls else { return .hang }
        polls.wakeElsewhere()
        wakeStreams(of: callback.app)
        let arrived = answered.wait(timeout: .now() + .nanoseconds(Int(min(timeout, 86_400) * 1e9))) == .success
        let (answer, timedOut) = state.withLock { state -> (CallbackAnswer, Bool) in
            defer {
                state.pending = nil
                state.open = false
                state.answer = nil
                state.signalled = false
            }
            // Signalled as the wait ran out: take the signal, so the next wait starts clear.
            if state.signalled && !arrived { answered.wait() }
            if let answer = state.answer { return (answer, false) }
            guard state.open else { return (.hang, false) }
            state.settle(.timedOut)
            state.timedOut += 1
            return (.hang, true)
        }
        if timedOut { wakeStreams(of: callback.app) }
        return answer
    }

    /// Tells the device's event streams that follow `app` (or the whole device) to look again.
    private func wakeStreams(of app: String) {
        published?.withLock { shared in
            shared.watchers.values.filter { $0.app == nil || $0.app == app }.map(\.watcher)
        }.wakeElsewhere()
    }
}
