import Dispatch
import Locking
import Logging

/// Namespace TTLs, on the wall clock: a sweep every `namespaceSweepInterval` deletes the namespaces idle for
/// their `ttlSeconds` (never a frozen one: it expires once thawed and idle for its TTL again), and journals the `lastUsedAt` of the others that were used since the last sweep
/// (so a restart judges their idleness from at most one sweep ago).
extension LifecycleService {
    func startExpirySweeps() {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = options.namespaceSweepInterval
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.sweepNamespaces() }
        sweeper.withLock { $0 = timer }
        timer.resume()
    }

    /// One sweep; tests call it directly with an injected wall clock.
    func sweepNamespaces() {
        guard isReady else { return }
        let now = options.wallClock()
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
