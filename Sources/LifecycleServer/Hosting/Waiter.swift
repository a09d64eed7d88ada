import Dispatch
import Synchronization

/// A parked long poll: fired once, by new entries, by the end of its wait, or by a reset or delete.
final class Waiter: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
    }

    /// Runs the action the first time only.
    func fire() {
        let taken = action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        taken?()
    }

    /// Fires after `seconds` unless something fired it before.
    func expire(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in fire() }
    }
}
