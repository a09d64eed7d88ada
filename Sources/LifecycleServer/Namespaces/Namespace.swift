/// One namespace: its own registry of devices and apps (ids are unique within it), its settings, and the
/// gate that orders device creations after a reset or deletion of it.
final class Namespace: Sendable {
    let name: String
    let registry: Registry
    let settings: Protected<NamespaceSettings>
    let gate = Protected(ResetGate())
    /// Whether the settings changed since they were last journaled (`lastUsedAt` moves on every request).
    let unjournaled = Protected(false)

    init(name: String, settings: NamespaceSettings) {
        self.name = name
        self.settings = Protected(settings)
        registry = Registry(shardCount: name == NamespaceName.defaultName ? 64 : 8)
    }

    var isDefault: Bool { name == NamespaceName.defaultName }

    /// The journal stream of a device of this namespace: its id in `default` (as every release before
    /// namespaces wrote it), `name/id` elsewhere (device ids never hold `/`, so the two never collide).
    func stream(ofDevice id: String) -> String { isDefault ? id : name + "/" + id }

    /// The journal stream holding the namespace's settings (`@` is in no device id nor namespace name).
    var settingsStream: String { Self.settingsPrefix + name }
    static let settingsPrefix = "@namespace/"

    /// Where its resources are, for `Location`: the unprefixed paths for `default` asked that way.
    func pathPrefix(namespaced: Bool) -> String { namespaced ? "/v1/namespaces/\(name)" : "/v1" }

    /// Notes a request that named the namespace, at wall-clock `now`.
    func touch(at now: Double) {
        settings.withLock { $0.lastUsedAt = max($0.lastUsedAt, now) }
        unjournaled.withLock { $0 = true }
    }

    /// Runs `work` at once unless a reset of this namespace is under way; then once every reset has handed
    /// its deletion to the journal. `work` runs under the gate (no reset begins while it runs) and hears
    /// whether the namespace still exists.
    func admitCreation(_ work: @escaping @Sendable (_ alive: Bool) -> Void) {
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
struct ResetGate {
    var resets = 0
    var waiting: [@Sendable () -> Void] = []
    /// Set once the namespace is deleted: creations admitted afterwards fail.
    var deleted = false
}
