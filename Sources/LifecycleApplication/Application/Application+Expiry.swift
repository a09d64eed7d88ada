import Dispatch
import LifecycleHosting
import LifecyclePersistence
import Locking
import Logging

/// Namespace TTLs, on the wall clock: a sweep every `namespaceSweepInterval` deletes the namespaces idle for
/// their `ttlSeconds` (never a frozen one: it expires once thawed and idle for its TTL again), and journals the `lastUsedAt` of the others that were used since the last sweep
/// (so a restart judges their idleness from at most one sweep ago).
extension Application {
    package func startExpirySweeps() {
        let interval = options.namespaceSweepInterval
        let timer = options.clock.makeTimer(on: .global()) { [weak self] in
            guard let self else { return }
            sweepNamespaces()
            sweeper.withLock { $0?.schedule(after: interval) }
        }
        sweeper.withLock { $0 = timer }
        timer.schedule(after: interval)
    }

    /// One sweep; tests call it directly, or move their `ManualHostClock` past the next.
    package func sweepNamespaces() {
        guard isReady else { return }
        let now = options.clock.now
        for space in namespaces.all() {
            let settings = space.settings
            // A frozen namespace never expires (`expired`); its gate holds a freeze asked meanwhile until it is gone.
            if !space.isDefault, settings.expired(at: now), space.writes.enter() {
                logger.info("namespace expired", metadata: ["namespace": "\(space.name)"])
                empty(space, deleting: true) { _ in space.writes.leave() }
                continue
            }
            // `default` keeps a settings record only while it has settings of its own.
            let worthKeeping = !space.isDefault || !settings.labels.isEmpty
            guard worthKeeping, space.isUnjournaled else { continue }
            namespaces.whilePresent(space) { writeSettingsRecord(of: space) }
        }
    }
}
