package import Dispatch
import Foundation
import Locking

/// Time as hosting sees it: the wall clock, and timers that fire on it. Hosting reads no other clock and
/// schedules no other delay, so a test that passes a `ManualHostClock` moves time itself (as swift-nio's
/// `EmbeddedEventLoop` does) instead of sleeping. `SystemHostClock` is the daemon's.
package protocol HostClock: Sendable {
    /// Wall-clock seconds since 1970.
    var now: Double { get }

    /// A timer whose `handler` runs on `queue` each time it fires; it fires once per `schedule(after:)`.
    func makeTimer(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any HostTimer

    /// Runs `action` on `queue` once, `seconds` from now.
    func after(_ seconds: Double, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void)
}

/// A timer of a `HostClock`.
package protocol HostTimer: Sendable {
    /// Fires once, `seconds` from now, in place of whatever it was scheduled for before.
    func schedule(after seconds: Double)
    /// Never fires again.
    func cancel()
}

/// The wall clock of the machine, and Dispatch's timers.
package struct SystemHostClock: HostClock {
    package init() {}

    package var now: Double { Date().timeIntervalSince1970 }

    package func makeTimer(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any HostTimer {
        DispatchHostTimer(queue: queue, handler: handler)
    }

    package func after(_ seconds: Double, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds, execute: action)
    }
}

/// A `DispatchSourceTimer`, resumed as it is made: libdispatch traps the process when a source that was never
/// activated is released, and a resumed source that was never scheduled never fires.
private final class DispatchHostTimer: HostTimer, @unchecked Sendable {
    private let source: any DispatchSourceTimer

    init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func schedule(after seconds: Double) {
        source.schedule(deadline: .now() + seconds, leeway: .milliseconds(1))
    }

    func cancel() { source.cancel() }
}

/// A wall clock that moves only when told (`advance`): the timers due by then fire, in the order of their
/// deadlines, each at its deadline and on its queue, before `advance` returns. For tests, and for a daemon
/// embedded in them. `advance` must not be called from a queue whose timer it would fire.
package final class ManualHostClock: HostClock {
    private struct Armed {
        var deadline: Double
        /// Timers due at the same instant fire in the order they were scheduled.
        var order: UInt64
    }

    private struct State {
        var now: Double
        var armed: [ObjectIdentifier: (timer: ManualTimer, when: Armed)] = [:]
        var scheduled: UInt64 = 0
    }

    private let state: Protected<State>

    /// A clock that reads `now` (wall-clock seconds since 1970) until it is advanced.
    package init(now: Double = 1_800_000_000) {
        state = Protected(State(now: now))
    }

    package var now: Double { state.withLock { $0.now } }

    package func makeTimer(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any HostTimer {
        ManualTimer(clock: self, queue: queue, handler: handler)
    }

    package func after(_ seconds: Double, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) {
        // Armed, the timer is held by the clock until it fires.
        makeTimer(on: queue, action).schedule(after: seconds)
    }

    /// Moves the clock `seconds` forward, firing the timers due meanwhile (and those they schedule).
    package func advance(by seconds: Double) {
        advance(to: now + seconds)
    }

    /// Moves the clock to `wall` (never back), firing the timers due by then (and those they schedule).
    package func advance(to wall: Double) {
        while let timer = takeDue(by: wall) {
            timer.queue.sync { timer.handler() }
        }
        state.withLock { $0.now = max($0.now, wall) }
    }

    /// How many timers are armed now.
    package var armedTimers: Int { state.withLock { $0.armed.count } }

    /// The earliest timer due by `wall`, disarmed, with the clock moved to its deadline.
    private func takeDue(by wall: Double) -> ManualTimer? {
        state.withLock { state in
            let due = state.armed.values.filter { $0.when.deadline <= wall }.min { a, b in
                (a.when.deadline, a.when.order) < (b.when.deadline, b.when.order)
            }
            guard let due else { return nil }
            state.armed[ObjectIdentifier(due.timer)] = nil
            state.now = max(state.now, due.when.deadline)
            return due.timer
        }
    }

    fileprivate func arm(_ timer: ManualTimer, after seconds: Double) {
        state.withLock { state in
            state.scheduled += 1
            let when = Armed(deadline: state.now + max(0, seconds), order: state.scheduled)
            state.armed[ObjectIdentifier(timer)] = (timer, when)
        }
    }

    fileprivate func disarm(_ timer: ManualTimer) {
        state.withLock { $0.armed[ObjectIdentifier(timer)] = nil }
    }
}

/// A timer of a `ManualHostClock`: armed, the clock holds it until it fires or is cancelled.
private final class ManualTimer: HostTimer {
    let clock: ManualHostClock
    let queue: DispatchQueue
    let handler: @Sendable () -> Void
    private let cancelled = Protected(false)

    init(clock: ManualHostClock, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.queue = queue
        self.handler = handler
    }

    func schedule(after seconds: Double) {
        // Under the timer's lock: a cancel racing with a schedule leaves it disarmed either way.
        cancelled.withLock { cancelled in
            if !cancelled { clock.arm(self, after: seconds) }
        }
    }

    func cancel() {
        cancelled.withLock { cancelled in
            cancelled = true
            clock.disarm(self)
        }
    }
}
