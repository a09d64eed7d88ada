/// Something that happens once: the first `fire` runs the action with its value, and every later `fire` is
/// refused (it returns false and runs nothing). Safe from any thread; the action runs outside the lock, and
/// is released once it ran (what it captured goes with it).
///
/// The one "first answer wins" of the daemon: an answer handed to a waiting caller, a stream's end told to
/// its reader, a deadline racing a durable write.
public final class Once<Value>: Sendable {
    private let action: Protected<(@Sendable (Value) -> Void)?>

    /// `action` runs on the first `fire` only; with none, `fire` only tells whether it was the first.
    public init(_ action: @escaping @Sendable (Value) -> Void = { _ in }) {
        self.action = Protected(action)
    }

    /// Runs the action with `value` if nothing fired before; returns whether it did.
    @discardableResult
    public func fire(_ value: Value) -> Bool {
        let taken = action.withLock { action -> (@Sendable (Value) -> Void)? in
            defer { action = nil }
            return action
        }
        guard let taken else { return false }
        taken(value)
        return true
    }

    /// Whether something fired already.
    public var hasFired: Bool { action.withLock { $0 == nil } }
}
