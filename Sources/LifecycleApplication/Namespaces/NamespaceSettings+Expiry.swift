package import LifecyclePersistence

extension NamespaceSettings {
    /// Whether the namespace has been idle for its TTL at `now`; a frozen one never is (it is moving to another
    /// shard: deleting it would lose what is moving).
    package func expired(at now: Double) -> Bool {
        guard let ttlSeconds, !frozen else { return false }
        return now - lastUsedAt >= Double(ttlSeconds)
    }
}
