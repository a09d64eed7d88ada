package import LifecyclePersistence
package import LifecycleWire
import Locking

/// Every namespace by name. `default` always exists and is reachable without a lock; the others are
/// created by the first write naming them and leave by `DELETE` or their TTL.
///
/// The journal operations on a namespace's settings stream are issued under the table's lock, so a
/// deletion's and a re-creation's records reach the journal in the order the table saw them.
package final class NamespaceTable: Sendable {
    package let defaultSpace: Namespace
    private let others = Protected<[String: Namespace]>([:])

    package init(now: Double) {
        defaultSpace = Namespace(
            name: NamespaceName.defaultName, settings: NamespaceSettings(createdAt: now, lastUsedAt: now))
    }

    /// The namespace named `name`, if it exists.
    package func existing(_ name: String) -> Namespace? {
        name == NamespaceName.defaultName ? defaultSpace : others.withLock { $0[name] }
    }

    /// The namespace named `name`, created with `settings` if it does not exist; `created` runs under the
    /// table's lock with a new namespace (to journal it before anything lands in it).
    package func obtain(
        _ name: String, settings: @autoclosure () -> NamespaceSettings,
        admit: (_ others: Dictionary<String, Namespace>.Values) -> APIError? = { _ in nil },
        created: (Namespace) -> Void
    ) throws(APIError) -> (space: Namespace, created: Bool) {
        if let space = existing(name) { return (space, false) }
        let outcome = others.withLock { table -> Result<(Namespace, Bool), APIError> in
            if let space = table[name] { return .success((space, false)) }
            // Checked under the lock that creates, so concurrent creations cannot pass a bound together.
            if let refusal = admit(table.values) { return .failure(refusal) }
            let space = Namespace(name: name, settings: settings())
            table[name] = space
            created(space)
            return .success((space, true))
        }
        return try outcome.get()
    }

    /// Runs `work` under the table's lock if `space` is still in the table; returns whether it was.
    @discardableResult
    package func whilePresent(_ space: Namespace, _ work: () -> Void) -> Bool {
        if space.isDefault {
            return others.withLock { _ in
                work()
                return true
            }
        }
        return others.withLock { table in
            guard table[space.name] === space else { return false }
            work()
            return true
        }
    }

    /// Takes `space` out of the table (never `default`), running `removed` under the lock; false when it
    /// was not there.
    package func remove(_ space: Namespace, removed: () -> Void) -> Bool {
        guard !space.isDefault else { return false }
        return others.withLock { table in
            guard table[space.name] === space else { return false }
            table[space.name] = nil
            removed()
            return true
        }
    }

    /// Adds a namespace rebuilt from the journal (before the service takes requests).
    package func restore(_ space: Namespace) {
        others.withLock { $0[space.name] = space }
    }

    /// Every namespace, `default` included, sorted by name.
    package func all() -> [Namespace] {
        var spaces = others.withLock { Array($0.values) }
        spaces.append(defaultSpace)
        spaces.sort { $0.name < $1.name }
        return spaces
    }
}
