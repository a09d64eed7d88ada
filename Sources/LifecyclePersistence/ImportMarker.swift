import LifecycleCore
import LifecycleJSON

/// The journal's note that an import is being written into a namespace: the first thing an import writes, and
/// the last it deletes. Its deletion is the import's commit. A marker found at start-up belongs to an import
/// that a crash, a SIGKILL or a store failure cut short: recovery deletes what it names (the devices it was
/// writing, and the namespace when the import was creating it), so an import is there whole or not at all.
package struct ImportMarker: Equatable, Sendable {
    /// The namespace the import writes into.
    package var namespace: String
    /// Whether the import creates it (a rolled-back import takes it away again).
    package var newNamespace: Bool
    /// The journal streams of the devices it writes.
    package var streams: [String]

    /// Markers' streams: `@import/` and a name of the import's own (`@` is in no device id nor namespace name).
    package static let prefix = "@import/"

    package static func isMarker(_ stream: String) -> Bool { stream.hasPrefix(prefix) }

    /// The record format's version, its `"v"`.
    package static let version = 1

    package var record: [UInt8] {
        var w = JSONWriter(reservingCapacity: 128 + streams.count * 32)
        w.beginObject()
        w.field("v")
        w.int(Self.version)
        w.field("namespace")
        w.string(namespace)
        w.field("newNamespace")
        w.bool(newNamespace)
        w.field("streams")
        w.beginArray()
        for stream in streams { w.string(stream) }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    package init(namespace: String, newNamespace: Bool, streams: [String]) {
        self.namespace = namespace
        self.newNamespace = newNamespace
        self.streams = streams
    }

    package init(record: [UInt8]) throws {
        let value = try JSONParser.parse(record)
        guard value["v"]?.numberValue == Double(Self.version), let namespace = value["namespace"]?.stringValue,
            case .bool(let newNamespace)? = value["newNamespace"], case .array(let streams)? = value["streams"]
        else {
            throw CorruptRecord()
        }
        self.namespace = namespace
        self.newNamespace = newNamespace
        self.streams = try streams.map { stream in
            guard let name = stream.stringValue else { throw CorruptRecord() }
            return name
        }
    }
}
