import Foundation
package import LifecycleCore
import LifecycleJSON

/// A device as saved in the store, so start-up need not replay its whole journal: the core state,
/// the retained timelines and the remembered idempotent answers.
///
/// The bytes: `LCSN` and a version byte; a small JSON header (`anchorWall`, the apps whose timelines
/// are saved with their `evictedThrough` and oldest `seq`, the device's own, and the idempotency keys);
/// the core's Codable JSON; then every retained entry once, oldest first, as `seq`, flags, the index of
/// its app in the header, its scene session when flag 4 says it has one, and its JSON exactly as served; then each remembered answer's body. Entries
/// and bodies are length-prefixed bytes, never re-escaped, so saving and loading cost little beyond a copy.
/// Version 2 is the same after `LCSN` 2, compressed with zlib and preceded by its length: the store's one
/// writer takes several times less time for it (version 1, uncompressed, still loads). Version 3 (written
/// now) is version 2 whose idempotency keys are the app's (`"app"`, null for the device's own) and the
/// client's key, without the status an answer always had (200); versions 1 and 2 kept the key scoped to the
/// request's path (`IdempotencyKey(pathScoped:)`) and the status.
package struct DeviceSnapshot {
    package var anchorWall: Double
    package var device: Device
    package var deviceTimeline: EntryRing
    package var appTimelines: [String: EntryRing]
    package var idempotency: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)]

    /// The snapshot format's version: the byte after `LCSN`. Every earlier version must still load.
    package static let version: UInt8 = 3
    private static let magic: [UInt8] = Array("LCSN".utf8)
    private static let noApp = UInt32.max

    package init(
        anchorWall: Double, device: Device, deviceTimeline: EntryRing, appTimelines: [String: EntryRing],
        idempotency: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)]
    ) {
        self.anchorWall = anchorWall
        self.device = device
        self.deviceTimeline = deviceTimeline
        self.appTimelines = appTimelines
        self.idempotency = idempotency
    }

    /// The snapshot's bytes: the current version (compressed).
    package func encoded() throws -> [UInt8] {
        let body = try encodedBody()
        var out = ByteWriter()
        out.bytes = Self.magic + [Self.version]
        out.u64(UInt64(body.count))
        out.bytes += try Deflate.compress(body)
        return out.bytes
    }

    /// Everything after the magic and the version byte, uncompressed.
    private func encodedBody() throws -> [UInt8] {
        let apps = appTimelines.keys.sorted()
        let appIndex = Dictionary(uniqueKeysWithValues: apps.enumerated().map { ($1, UInt32($0)) })
        func describe(_ ring: EntryRing) -> JSONValue {
            [
                "evictedThrough": .string(String(ring.evictedThrough)),
                "oldest": ring.oldestSeq.map { .string(String($0)) } ?? .null,
            ]
        }
        let header: JSONValue = [
            "anchorWall": .number(anchorWall),
            "device": describe(deviceTimeline),
            "apps": .array(
                apps.map { app in .object(["id": .string(app), "timeline": describe(appTimelines[app]!)]) }),
            "idempotency": .array(
                idempotency.map { key, answer in
                    [
                        "app": key.app.map(JSONValue.string) ?? .null, "key": .string(key.key),
                        "fp": .string(String(answer.fingerprint)),
                    ]
                }),
        ]
        // Every retained entry once: the device's ring holds most, an app's ring may hold older ones.
        var entries: [(seq: UInt64, app: UInt32, entry: RenderedEntry)] = []
        for entry in deviceTimeline.retained { entries.append((entry.seq, Self.noApp, entry)) }
        for (app, ring) in appTimelines {
            for entry in ring.retained { entries.append((entry.seq, appIndex[app]!, entry)) }
        }
        entries.sort { $0.seq != $1.seq ? $0.seq < $1.seq : $0.app < $1.app }

        var out = ByteWriter()
        out.blob(JSONWriter.encode(header))
        out.blob(Array(try JSONEncoder().encode(device)))
        var previous: UInt64?
        var written: [(UInt64, UInt32, RenderedEntry)] = []
        // An app's entry may be in its app's ring and in the device's; sorted, the app's copy comes first.
        for item in entries where item.seq != previous {
            written.append((item.seq, item.app, item.entry))
            previous = item.seq
        }
        out.u32(UInt32(written.count))
        for (seq, app, entry) in written {
            out.u64(seq)
            out.bytes.append(
                (entry.isCallback ? 1 : 0) | (entry.isNotification ? 2 : 0) | (entry.session != nil ? 4 : 0))
            out.u32(app)
            if let session = entry.session { out.blob(Array(session.utf8)) }
            out.blob(entry.json)
        }
        for (_, answer) in idempotency { out.blob(answer.body) }
        return out.bytes
    }

    package init(bytes: [UInt8], historyLimit: Int) throws {
        var outer = ByteReader(bytes)
        guard try outer.take(4) == Self.magic[...] else { throw JournaledInput.CorruptRecord() }
        let version = try outer.byte()
        var input: ByteReader
        switch version {
        case 1:
            input = outer
        case 2, 3:
            let count = try outer.u64()
            guard count <= UInt64(Int.max) else { throw JournaledInput.CorruptRecord() }
            input = ByteReader(try Deflate.decompress(outer.rest(), count: Int(count)))
        default:
            throw UnknownVersion(version: version)
        }
        let header = try JSONParser.parse(try input.blob())
        device = try JSONDecoder().decode(Device.self, from: Data(try input.blob()))
        guard let anchor = header["anchorWall"]?.numberValue, case .array(let apps)? = header["apps"],
            case .array(let answers)? = header["idempotency"]
        else { throw JournaledInput.CorruptRecord() }
        anchorWall = anchor
        func ring(_ description: JSONValue?) -> (EntryRing, UInt64) {
            let evicted = description?["evictedThrough"]?.stringValue.flatMap { UInt64($0) } ?? 0
            let oldest = description?["oldest"]?.stringValue.flatMap { UInt64($0) } ?? .max
            return (EntryRing(limit: historyLimit, evictedThrough: evicted), oldest)
        }
        var (deviceRing, deviceOldest) = ring(header["device"])
        var appIDs: [String] = []
        var rings: [(ring: EntryRing, oldest: UInt64)] = []
        for app in apps {
            guard let id = app["id"]?.stringValue else { throw JournaledInput.CorruptRecord() }
            appIDs.append(id)
            rings.append(ring(app["timeline"]))
        }
        let count = try input.u32()
        for _ in 0..<count {
            let seq = try input.u64()
            let flags = try input.byte()
            let app = try input.u32()
            let session = flags & 4 != 0 ? String(decoding: try input.blob(), as: UTF8.self) : nil
            guard app == Self.noApp || Int(app) < appIDs.count else { throw JournaledInput.CorruptRecord() }
            let stored = RenderedEntry(
                seq: seq, app: app == Self.noApp ? nil : appIDs[Int(app)], isCallback: flags & 1 != 0,
                isNotification: flags & 2 != 0, session: session, json: Array(try input.blob()))
            if seq >= deviceOldest { deviceRing.append(stored) }
            if app != Self.noApp {
                guard Int(app) < rings.count else { throw JournaledInput.CorruptRecord() }
                if seq >= rings[Int(app)].oldest { rings[Int(app)].ring.append(stored) }
            }
        }
        deviceTimeline = deviceRing
        appTimelines = Dictionary(uniqueKeysWithValues: zip(appIDs, rings.map(\.ring)))
        idempotency = try answers.map { item in
            guard let stored = item["key"]?.stringValue, let print = item["fp"]?.stringValue.flatMap({ UInt64($0) })
            else { throw JournaledInput.CorruptRecord() }
            let key: IdempotencyKey
            if version >= 3 {
                key = IdempotencyKey(app: item["app"]?.stringValue, key: stored)
            } else {
                // Versions 1 and 2: the key scoped to the path, and the status of a first answer (always 2xx).
                guard let status = item["status"]?.numberValue, (200...299).contains(status) else {
                    throw JournaledInput.CorruptRecord()
                }
                key = IdempotencyKey(pathScoped: stored)
            }
            return (key, IdempotencyCache.Answer(fingerprint: print, body: Array(try input.blob())))
        }
    }
}

extension DeviceSnapshot {
    /// A snapshot in a format newer than this build reads.
    package struct UnknownVersion: Error, CustomStringConvertible {
        package var version: UInt8
        package var description: String { "a snapshot has format version \(version), newer than this build reads" }
    }
}

/// Little-endian integers and length-prefixed blobs, appended.
private struct ByteWriter {
    package var bytes: [UInt8] = []

    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }

    package mutating func blob(_ data: [UInt8]) {
        u32(UInt32(data.count))
        bytes += data
    }
}

/// Reads what `ByteWriter` wrote; throws on anything cut short.
private struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, offset + count <= bytes.count else { throw JournaledInput.CorruptRecord() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    package mutating func byte() throws -> UInt8 { try take(1).first! }

    mutating func u32() throws -> UInt32 {
        try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() throws -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    package mutating func blob() throws -> ArraySlice<UInt8> { try take(Int(try u32())) }

    /// Everything not read yet.
    package mutating func rest() -> ArraySlice<UInt8> {
        defer { offset = bytes.count }
        return bytes[offset...]
    }
}
