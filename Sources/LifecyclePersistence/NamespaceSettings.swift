import LifecycleCore
import LifecycleJSON

/// What a namespace is besides its devices and apps: the settings `PUT /v1/namespaces/{ns}` sets and the
/// wall-clock times its TTL runs on. Journaled whole, as the only record of the namespace's stream
/// (`@namespace/NAME`): version 1, a JSON object with `"v":1`, the only version written so far.
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

    /// The record format's version, its `"v"`.
    package static let version = 1

    /// The journal record.
    package var record: [UInt8] {
        var w = JSONWriter(reservingCapacity: 128)
        w.beginObject()
        w.field("v")
        w.int(Self.version)
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

    /// Reads a journal record back.
    package init(record: [UInt8]) throws {
        let value = try JSONParser.parse(record)
        guard value["v"]?.numberValue == Double(Self.version), let createdAt = value["createdAt"]?.numberValue,
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
