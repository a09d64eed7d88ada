import Foundation
import LifecycleHosting
import Locking

/// A `ManualHostClock` one of whose readings waits until the test releases it: it holds whoever reads the
/// clock at a moment the test chooses (an import part-way through its steps, each of which reads it), as
/// `HeldJournal` holds a write. Every other reading, and every timer, is the manual clock's.
final class HeldClock: HostClock {
    let manual: ManualHostClock
    private struct State {
        /// Readings still to pass before the one that is held; nil: none is held.
        var passing: Int?
        var holding = false
    }

    private let state = Protected(State())
    private let released = DispatchSemaphore(value: 0)

    init(_ manual: ManualHostClock = ManualHostClock()) {
        self.manual = manual
    }

    /// Holds the reading that comes after `readings` more from now, until `release()`.
    func hold(after readings: Int) {
        state.withLock { $0.passing = readings }
    }

    /// Whether a reading is held now.
    var isHolding: Bool { state.withLock { $0.holding } }

    /// Lets the held reading go on (and takes back a hold that has not caught one yet).
    func release() {
        let held = state.withLock { state -> Bool in
            defer {
                state.passing = nil
                state.holding = false
            }
            return state.holding
        }
        if held { released.signal() }
    }

    var now: Double {
        let caught = state.withLock { state -> Bool in
            guard let passing = state.passing else { return false }
            if passing > 0 {
                state.passing = passing - 1
                return false
            }
            state.passing = nil
            state.holding = true
            return true
        }
        if caught { released.wait() }
        return manual.now
    }

    func makeTimer(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> any HostTimer {
        manual.makeTimer(on: queue, handler)
    }

    func after(_ seconds: Double, on queue: DispatchQueue, _ action: @escaping @Sendable () -> Void) {
        manual.after(seconds, on: queue, action)
    }
}
