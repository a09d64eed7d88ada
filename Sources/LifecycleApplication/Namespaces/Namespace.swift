package import LifecycleHosting
package import LifecyclePersistence
package import Locking
import Synchronization

/// One namespace: its own registry of devices and apps (ids are unique within it), its settings, and the
/// gate that orders device creations after a reset or deletion of it.
package final class Namespace: Sendable {
    package let name: String
    package let registry: Registry
    package let gate = Protected(ResetGate())
    /// Changes to its devices and apps, for its `changes` streams.
    package let changeFeed: ChangeFeed
    /// Its apps by state, for listings filtered by state.
    package let stateIndex: StateIndex
    /// The settings but `lastUsedAt`, which every request moves: it lives in `lastUsedMillis`, so that
    /// requests to one namespace share no lock.
    private let stored: Protected<NamespaceSettings>
    private let lastUsedMillis: Atomic<Int64>
    /// Whether the settings changed since they were last journaled.
    private let unjournaled = Atomic<Bool>(false)
    /// Whether it takes changes (`frozen`), and those under way.
    package let writes: WriteGate

    package init(name: String, settings: NamespaceSettings) {
        self.name = name
        stored = Protected(settings)
        writes = WriteGate(frozen: settings.frozen)
        lastUsedMillis = Atomic(Self.millis(settings.lastUsedAt))
        let registry = Registry(shardCount: name == NamespaceName.defaultName ? 64 : 8)
        self.registry = registry
        changeFeed = ChangeFeed(devices: { registry.allDevices() })
        stateIndex = StateIndex(devices: { registry.allDevices() })
    }

    private static func millis(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded(.down)) }

    /// The settings now.
    package var settings: NamespaceSettings {
        var settings = stored.withLock { $0 }
        settings.lastUsedAt = Double(lastUsedMillis.load(ordering: .relaxed)) / 1000
        return settings
    }

    /// Changes the settings (not `lastUsedAt`: `touch` moves it).
    package func updateSettings(_ change: (inout NamespaceSettings) -> Void) {
        let frozen = stored.withLock { settings in
            change(&settings)
            return settings.frozen
        }
        writes.setFrozen(frozen)
        unjournaled.store(true, ordering: .relaxed)
    }

    /// Replaces the settings, `lastUsedAt` included (recovery).
    package func replaceSettings(_ settings: NamespaceSettings) {
        stored.withLock { $0 = settings }
        writes.setFrozen(settings.frozen)
        lastUsedMillis.store(Self.millis(settings.lastUsedAt), ordering: .relaxed)
    }

    /// Whether the settings changed since `markJournaled`.
    package var isUnjournaled: Bool { unjournaled.load(ordering: .relaxed) }

    package func markJournaled() { unjournaled.store(false, ordering: .relaxed) }

    package var isDefault: Bool { name == NamespaceName.defaultName }

    /// The journal stream of a device of this namespace: its id in `default` (as every release before
    /// namespaces wrote it), `name/id` elsewhere (device ids never hold `/`, so the two never collide).
    package func stream(ofDevice id: String) -> String { isDefault ? id : name + "/" + id }

    /// The journal stream holding the namespace's settings (`@` is in no device id nor namespace name).
    package var settingsStream: String { Self.settingsPrefix + name }
    package static let settingsPrefix = "@namespace/"

    /// Where its resources are, for `Location`: the unprefixed paths for `default` asked that way.
    package func pathPrefix(namespaced: Bool) -> String { namespaced ? "/v1/namespaces/\(name)" : "/v1" }

    /// Notes a request that named the namespace, at wall-clock `now`; cheap when nothing moves.
    package func touch(at now: Double) {
        let next = Self.millis(now)
        var current = lastUsedMillis.load(ordering: .relaxed)
        while next > current {
            let (exchanged, original) = lastUsedMillis.compareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged {
                if !unjournaled.load(ordering: .relaxed) { unjournaled.store(true, ordering: .relaxed) }
                return
            }
            current = original
        }
    }

    /// Runs `work` at once unless a reset of this namespace is under way; then once every reset has handed
    /// its deletion to the journal. `work` runs under the gate (no reset begins while it runs) and hears
    /// whether the namespace still exists.
    package func admitCreation(_ work: @escaping @Sendable (_ alive: Bool) -> Void) {
        gate.withLock { gate in
            if gate.resets > 0 {
                gate.waiting.append { [self] in admitCreation(work) }
            } else {
                work(!gate.deleted)
            }
        }
    }
}

/// Resets (and the deletion) of a namespace under way, and the device creations waiting for them.
package struct ResetGate {
    package var resets = 0
    package var waiting: [@Sendable () -> Void] = []
    /// Set once the namespace is deleted: creations admitted afterwards fail.
    package var deleted = false
}
