import Dispatch
import LifecycleHosting
package import LifecycleStore
package import LifecycleWire
import Locking
import Synchronization

extension Application {
    /// Deletes every device and app of `space` at once, durably, and wakes every waiter on them; with
    /// `deleting`, the namespace goes too (its settings record first, so a crash half-way through leaves
    /// devices that recovery drops rather than a half-emptied namespace). No change of a device is journaled
    /// once this has taken it; device creations arriving meanwhile wait and land after it (in a deleted
    /// namespace they fail).
    package func empty(
        _ space: Namespace, deleting: Bool, completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        let deleting = deleting && !space.isDefault
        let hosts = space.gate.withLock { gate in
            gate.resets += 1
            if deleting { gate.deleted = true }
            return space.registry.removeAll()
        }
        space.stateIndex.clear()
        if deleting {
            _ = namespaces.remove(space) { journal.deleteStream(space.settingsStream) }
        }
        let retired = DispatchGroup()
        for host in hosts {
            retired.enter()
            host.retire { [registry = space.registry] apps in
                // Apps added while this was taking the registry.
                for app in apps { registry.releaseApp(app, from: host) }
                retired.leave()
            }
        }
        retired.notify(queue: .global()) { [self] in
            let durable = DispatchGroup()
            let failure = Protected<StoreError?>(nil)
            for host in hosts {
                durable.enter()
                journal.deleteStream(host.stream) { result in
                    if case .failure(let error) = result { failure.withLock { $0 = $0 ?? error } }
                    durable.leave()
                }
            }
            durable.notify(queue: .global()) { [self] in
                // Streams on the namespace end saying why: a reset, or the namespace's deletion.
                let reason: EventStreamEnd = deleting ? .deleted : .reset
                for host in hosts {
                    let watchers = host.shared.withLock { $0.watchers.values.map(\.watcher) }
                    for case let stream as any EventStreamEnding in watchers { stream.end(reason) }
                }
                space.changeFeed.endAll(reason)
                for host in hosts { host.markGone(withNamespace: deleting ? space.name : nil) }
                if let error = failure.withLock({ $0 }) {
                    storeDidFail(error)
                    completion(.failure(error))
                } else {
                    completion(.success(()))
                }
            }
            let waiting = space.gate.withLock { gate -> [@Sendable () -> Void] in
                gate.resets -= 1
                guard gate.resets == 0 else { return [] }
                defer { gate.waiting = [] }
                return gate.waiting
            }
            waiting.forEach { $0() }
        }
    }

    /// Empties every namespace (they stay, with their settings). It is a change to each, and passes each one's
    /// gate: with one frozen (moving to another shard) it empties none and throws `409 namespace-frozen` naming
    /// those; a freeze asked while it runs waits for it. `completion` hears whether the store failed.
    package func resetEverything(completion: @escaping @Sendable (_ failed: Bool) -> Void) throws(APIError) {
        let spaces = namespaces.all()
        var entered: [Namespace] = []
        for space in spaces {
            guard space.writes.enter() else {
                for space in entered { space.writes.leave() }
                throw .frozen(resetting: spaces.filter(\.writes.isFrozen).map(\.name))
            }
            entered.append(space)
        }
        let all = DispatchGroup()
        let failed = Atomic<Bool>(false)
        for space in spaces {
            all.enter()
            empty(space, deleting: false) { result in
                if case .failure = result { failed.store(true, ordering: .relaxed) }
                all.leave()
            }
        }
        all.notify(queue: .global()) {
            for space in spaces { space.writes.leave() }
            completion(failed.load(ordering: .relaxed))
        }
    }

    /// Deletes the namespace and everything in it. `default` is never deleted (400): its reset empties it.
    package func deleteNamespace(
        _ space: Namespace, completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) throws(APIError) {
        guard !space.isDefault else {
            throw .invalidField(
                "namespace",
                "the namespace default is never deleted; POST /v1/namespaces/default/reset (or /v1/reset) empties it")
        }
        empty(space, deleting: true, completion: completion)
    }
}
