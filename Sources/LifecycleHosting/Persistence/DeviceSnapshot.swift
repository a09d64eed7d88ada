import Foundation
package import LifecycleCore
import LifecycleJSON

/// A device as saved in the store, so start-up need not replay its whole journal: the core state,
/// the retained timelines and the remembered idempotent answers.
///
/// The bytes: `LCSN`, a version byte, the length of the body uncompressed, then the body compressed with
/// zlib (version 1: uncompressed, without the length). The body: a small JSON header (`anchorWall`, the apps
/// whose timelines are saved with their `evictedThrough` and oldest `seq`, the device's own, and the
/// idempotency keys); the core's `Device` as its Codable JSON; every retained entry once, oldest first, as
/// `seq`, a byte of flags (4: it has a session; 8: its app is named; versions before 4: 1 callback, 2
/// notification), the index in the header of its app's timeline (`UInt32.max` for none), its app's name when
/// its app has no timeline (a deleted app's entries the device's timeline still holds), its session, then the
/// entry; then each remembered answer's body; then, when the device records its inputs (`InputRecording`),
/// their count and each record (absent from snapshots saved before recordings were kept, which leave the
/// device unrecorded). Blobs are length-prefixed, integers little-endian.
///
/// - Version 4 (written now) stores each entry as the core's value (`EntryCoding`, what timelines retain),
///   so entries are the domain's, whatever the API serves; idempotency keys are the app's (null for the
///   device's own) and the client's. An answer is kept as it was sent: a retry gets the first answer's bytes,
///   whichever build answers it.
/// - Versions 1 to 3 stored each entry as the JSON the API served; they load through `HostRendering`'s
///   reading of it. Version 3 scoped keys by app as 4 does; 1 and 2 scoped them to the request's path
///   (`IdempotencyKey(pathScoped:)`) and kept the status every answer had (200).
package struct DeviceSnapshot {
    package var anchorWall: Double
    package var device: Device
    package var deviceTimeline: EntryRing
    package var appTimelines: [String: EntryRing]
    package var idempotency: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)]
    /// The inputs that replay the device, if it kept them all.
    package var recording: InputRecording?

    /// The snapshot format's version: the byte after `LCSN`. Every earlier version must still load.
    package static let version: UInt8 = 4
    private static let magic: [UInt8] = Array("LCSN".utf8)
    private static let noApp = UInt32.max

    package init(
        anchorWall: Double, device: Device, deviceTimeline: EntryRing, appTimelines: [String: EntryRing],
        idempotency: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)], recording: InputRecording? = nil
    ) {
        self.recording = recording
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
        // Every retained entry once (an app's entry may be in its app's ring and in the device's), oldest first.
        var entries = Array(deviceTimeline.retained)
        for ring in appTimelines.values { entries += ring.retained }
        entries.sort { $0.seq < $1.seq }
        let appIndex = Dictionary(uniqueKeysWithValues: apps.enumerated().map { ($1, UInt32($0)) })
        var unique: [RetainedEntry] = []
        for entry in entries where entry.seq != unique.last?.seq { unique.append(entry) }
        var out = ByteWriter()
        out.blob(JSONWriter.encode(header))
        out.blob(Array(try JSONEncoder().encode(device)))
        out.u32(UInt32(unique.count))
        for entry in unique {
            // The app by its index when it has a timeline (its entries from its oldest on are in it), else
            // (a deleted app's entries, still in the device's timeline) by name.
            let index = entry.app.flatMap { appIndex[$0] }
            let named = index == nil ? entry.app : nil
            out.u64(entry.seq)
            out.byte((entry.session != nil ? 4 : 0) | (named != nil ? 8 : 0))
            out.u32(index ?? Self.noApp)
            if let named { out.blob(Array(named.utf8)) }
            if let session = entry.session { out.blob(Array(session.utf8)) }
            entry.withEncoded { out.blob($0) }
        }
        for (_, answer) in idempotency { out.blob(answer.body) }
        if let recording, recording.complete {
            out.u32(UInt32(recording.records.count))
            for record in recording.records { out.blob(record) }
        }
        return out.bytes
    }

    /// Loads a snapshot of any version; `rendering` reads the entries of versions before 4, stored as served.
    package init(bytes: [UInt8], historyLimit: Int, rendering: any HostRendering) throws {
        var outer = ByteReader(bytes)
        guard try outer.take(4) == Self.magic[...] else { throw CorruptRecord() }
        let version = try outer.byte()
        var input: ByteReader<[UInt8]>
        switch version {
        case 1:
            input = outer
        case 2, 3, 4:
            let count = try outer.u64()
            guard count <= UInt64(Int.max) else { throw CorruptRecord() }
            input = ByteReader(try Deflate.decompress(outer.rest(), count: Int(count)))
        default:
            throw UnknownVersion(version: version)
        }
        let header = try JSONParser.parse(try input.blob())
        device = try JSONDecoder().decode(Device.self, from: Data(try input.blob()))
        guard let anchor = header["anchorWall"]?.numberValue, case .array(let apps)? = header["apps"],
            case .array(let answers)? = header["idempotency"]
        else { throw CorruptRecord() }
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
            guard let id = app["id"]?.stringValue else { throw CorruptRecord() }
            appIDs.append(id)
            rings.append(ring(app["timeline"]))
        }
        let count = try input.u32()
        for _ in 0..<count {
            let seq = try input.u64()
            let flags = try input.byte()
            let app = try input.u32()
            let named = flags & 8 != 0 ? String(decoding: try input.blob(), as: UTF8.self) : nil
            let session = flags & 4 != 0 ? String(decoding: try input.blob(), as: UTF8.self) : nil
            guard app == Self.noApp || Int(app) < appIDs.count else { throw CorruptRecord() }
            let appID = named ?? (app == Self.noApp ? nil : appIDs[Int(app)])
            let stored = Array(try input.blob())
            let made: RetainedEntry
            if version >= 4 {
                made = try RetainedEntry(seq: seq, app: appID, session: session, encoded: stored)
            } else {
                guard let served = rendering.entry(served: stored), served.seq == seq else {
                    throw CorruptRecord()
                }
                made = RetainedEntry(served)
            }
            // Shared as `PublishedDevice.install` shares it: an equal entry's body, from the app's timeline.
            let entry = app == Self.noApp ? deviceRing.sharing(made) : rings[Int(app)].ring.sharing(made)
            if seq >= deviceOldest { deviceRing.append(entry) }
            if app != Self.noApp, seq >= rings[Int(app)].oldest { rings[Int(app)].ring.append(entry) }
        }
        deviceTimeline = deviceRing
        appTimelines = Dictionary(zip(appIDs, rings.map(\.ring))) { first, _ in first }
        idempotency = try answers.map { item in
            guard let stored = item["key"]?.stringValue, let print = item["fp"]?.stringValue.flatMap({ UInt64($0) })
            else { throw CorruptRecord() }
            let key: IdempotencyKey
            if version >= 3 {
                key = IdempotencyKey(app: item["app"]?.stringValue, key: stored)
            } else {
                // Versions 1 and 2: the key scoped to the path, and the status of a first answer (always 2xx).
                guard let status = item["status"]?.numberValue, (200...299).contains(status) else {
                    throw CorruptRecord()
                }
                key = IdempotencyKey(pathScoped: stored)
            }
            return (key, IdempotencyCache.Answer(fingerprint: print, body: Array(try input.blob())))
        }
        if input.isAtEnd {
            recording = nil
        } else {
            let count = try input.u32()
            var records: [[UInt8]] = []
            for _ in 0..<count { records.append(Array(try input.blob())) }
            recording = InputRecording(records: records)
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
