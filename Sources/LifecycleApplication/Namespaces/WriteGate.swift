import LifecycleCore
package import LifecycleWire
import Locking

/// Whether a namespace takes changes, and how many are under way: a frozen namespace (while it moves to
/// another shard) answers every change `409 namespace-frozen` with `Retry-After`, and freezing it waits until
/// those under way are answered, so that an export after it holds every change that was acknowledged.
package final class WriteGate: Sendable {
    private let state: Protected<(frozen: Bool, inFlight: Int)>

    init(frozen: Bool) {
        state = Protected((frozen, 0))
    }

    /// Lets a change in, unless the namespace is frozen; `leave` must follow once it is answered.
    package func enter() -> Bool {
        state.withLock { state in
            if state.frozen { return false }
            state.inFlight += 1
            return true
        }
    }

    package func leave() {
        state.withLock { $0.inFlight -= 1 }
    }

    package var isFrozen: Bool { state.withLock { $0.frozen } }

    /// Changes under way now.
    package var inFlight: Int { state.withLock { $0.inFlight } }

    func setFrozen(_ frozen: Bool) {
        state.withLock { $0.frozen = frozen }
    }
}

extension APIError {
    /// 409 for a change to a frozen namespace: a conflict with its state, for a while (`Retry-After`).
    package static func frozen(_ namespace: String) -> APIError {
        APIError(
            .namespaceFrozen,
            "the namespace \(namespace) is frozen (it is moving to another shard) and takes no changes; "
                + "try again shortly, or PUT {\"frozen\": false} to it",
            headers: [("Retry-After", "1")])
    }

    /// 409 for `POST /v1/reset` while namespaces are frozen: it empties none of them, the others neither.
    package static func frozen(resetting names: [String]) -> APIError {
        APIError(
            .namespaceFrozen,
            "the namespace\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") "
                + "frozen (moving to another shard), and a reset would empty \(names.count == 1 ? "it" : "them"); nothing "
                + "was reset: try again once thawed, or reset the other namespaces one by one "
                + "(POST /v1/namespaces/{ns}/reset)",
            extra: ["namespaces": .array(names.map(JSONValue.string))], headers: [("Retry-After", "1")])
    }
}
