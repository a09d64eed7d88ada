import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire

/// What a namespace is besides its devices and apps: the settings `PUT /v1/namespaces/{ns}` sets and the
/// wall-clock times its TTL runs on. Journaled whole, as the only record of the namespace's stream.
package struct NamespaceSettings: Equatable, Sendable {
    /// Wall-clock seconds since 1970.
    package var createdAt: Double
    /// Wall-clock seconds since 1970 of the last request that named the namespace.
    package var lastUsedAt: Double
    /// Idle seconds after which the namespace is deleted; nil keeps it.
    package var ttlSeconds: Int?
    package var labels: [String: String] = [:]
    /// The name of the token whose request created it (not an admin's); nil with tokens off, for an admin,
    /// and for namespaces journaled before the field existed. What `--max-namespaces-per-token` counts.
    package var createdBy: String?
    /// Whether it takes no changes, while it moves to another shard (`WriteGate`).
    package var frozen = false

    /// Whether the namespace has been idle for its TTL at `now`; a frozen one never is (it is moving to another
    /// shard: deleting it would lose what is moving).
    package func expired(at now: Double) -> Bool {
        guard let ttlSeconds, !frozen else { return false }
        return now - lastUsedAt >= Double(ttlSeconds)
    }

    /// The journal record.
    package var record: [UInt8] {
        var w = JSONWriter(reservingCapacity: 128)
        w.beginObject()
        w.field("v")
        w.int(1)
        w.field("createdAt")
        w.number(createdAt)
        w.field("lastUsedAt")
        w.number(lastUsedAt)
        w.field("ttlSeconds")
        if let ttlSeconds { w.int(ttlSeconds) } else { w.null() }
        w.field("labels")
        w.beginObject()
        for key in labels.keys.sorted() {
            w.key(key)
            w.string(labels[key]!)
        }
        w.endObject()
        if let createdBy {
            w.field("createdBy")
            w.string(createdBy)
        }
        if frozen {
            w.field("frozen")
            w.bool(true)
        }
        w.endObject()
        return w.bytes
    }

    struct CorruptRecord: Error {}

    /// Reads a journal record back.
    package init(record: [UInt8]) throws {
        let value = try JSONParser.parse(record)
        guard value["v"]?.numberValue == 1, let createdAt = value["createdAt"]?.numberValue,
            let lastUsedAt = value["lastUsedAt"]?.numberValue
        else { throw CorruptRecord() }
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        ttlSeconds = value["ttlSeconds"]?.numberValue.map { Int($0) }
        if case .object(let members)? = value["labels"] {
            for (key, label) in members { labels[key] = label.stringValue }
        }
        createdBy = value["createdBy"]?.stringValue
        frozen = value["frozen"] == .bool(true)
    }

    package init(createdAt: Double, lastUsedAt: Double, ttlSeconds: Int? = nil, labels: [String: String] = [:]) {
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.ttlSeconds = ttlSeconds
        self.labels = labels
    }
}
