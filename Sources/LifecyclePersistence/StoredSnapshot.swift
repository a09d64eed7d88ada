import Foundation
package import LifecycleCore
import LifecycleJSON
import LifecycleWire

/// A device as a snapshot stores it, so start-up need not replay its whole journal: the core state, the
/// retained timelines' entries and the remembered idempotent answers, as plain values (hosting turns them into
/// its timelines, `DeviceSnapshot`).
///
/// The bytes: `LCSN`, a version byte, the length of the body uncompressed, then the body compressed with
/// zlib (version 1: uncompressed, without the length). The body: a small JSON header (`anchorWall`, the apps
/// whose timelines are saved with their `evictedThrough` and oldest `seq`, the device's own, and the
/// idempotency keys); the core's `Device` as its Codable JSON; every retained entry once, oldest first, as
/// `seq`, a byte of flags (4: it has a session; 8: its app is named; versions before 4: 1 callback, 2
/// notification), the index in the header of its app's timeline (`UInt32.max` for none), its app's name when
/// its app has no timeline (a deleted app's entries the device's timeline still holds), its session, then the
/// entry; then each remembered answer's body; then, when the device records its inputs, their count and each
/// record (absent from snapshots saved before recordings were kept, which leave the device unrecorded). Blobs
/// are length-prefixed, integers little-endian.
///
/// - Version 4 (written now) stores each entry as the core's value (`EntryCoding`), so entries are the
///   domain's, whatever the API serves; idempotency keys are the app's (null for the device's own) and the
///   client's. An answer is kept as it was sent: a retry gets the first answer's bytes, whichever build
///   answers it.
/// - Versions 1 to 3 stored each entry as the JSON the API served: read with the API's entry decoder and
///   turned into version 4's form. Version 3 scoped keys by app as 4 does; 1 and 2 scoped them to the
///   request's path (`/v1/apps/{id}/events`, a newline, the key) and kept the status every answer had (200).
package struct StoredSnapshot: Sendable {
    /// A timeline's bounds: the highest `seq` it evicted, and its oldest retained (nil: none).
    package struct Timeline: Equatable, Sendable {
        package var evictedThrough: UInt64
        package var oldest: UInt64?

        package init(evictedThrough: UInt64, oldest: UInt64?) {
            self.evictedThrough = evictedThrough
            self.oldest = oldest
        }
    }

    /// One retained entry: `encoded` is its `EntryCoding` form.
    package struct Entry: Sendable {
        package var seq: UInt64
        package var app: String?
        package var session: String?
        package var encoded: [UInt8]
        /// The index in `apps` of the app's timeline that holds it, as read (nil: its app has none). Writing
        /// derives it from `app`.
        package var appTimeline: Int?

        package init(seq: UInt64, app: String?, session: String?, encoded: [UInt8], appTimeline: Int? = nil) {
            self.seq = seq
            self.app = app
            self.session = session
            self.encoded = encoded
            self.appTimeline = appTimeline
        }
    }

    /// A first answer to an `Idempotency-Key`: the key the app's (nil: the device's own), the fingerprint of
    /// the request's body, the answer's bytes.
    package struct Answer: Sendable {
        package var app: String?
        package var key: String
        package var fingerprint: UInt64
        package var body: [UInt8]

        package init(app: String?, key: String, fingerprint: UInt64, body: [UInt8]) {
            self.app = app
            self.key = key
            self.fingerprint = fingerprint
            self.body = body
        }
    }

    package var anchorWall: Double
    package var device: Device
    package var deviceTimeline: Timeline
    /// The apps with a timeline of their own, in the order `Entry.appTimeline` counts them.
    package var apps: [(id: String, timeline: Timeline)]
    /// Every retained entry once, oldest first.
    package var entries: [Entry]
    package var answers: [Answer]
    /// The inputs that replay the device, if it kept them all.
    package var recording: [[UInt8]]?

    /// The snapshot format's version: the byte after `LCSN`. Every earlier version must still load.
    package static let version: UInt8 = 4
    private static let magic: [UInt8] = Array("LCSN".utf8)
    private static let noApp = UInt32.max

    package init(
        anchorWall: Double, device: Device, deviceTimeline: Timeline, apps: [(id: String, timeline: Timeline)],
        entries: [Entry], answers: [Answer], recording: [[UInt8]]?
    ) {
        self.anchorWall = anchorWall
        self.device = device
        self.deviceTimeline = deviceTimeline
        self.apps = apps
        self.entries = entries
        self.answers = answers
        self.recording = recording
    }

    /// The snapshot's bytes: the current version (compressed).
    package func encoded() throws -> [UInt8] {
        let body = try encodedBody()
        var header = ByteWriter()
        header.bytes = Self.magic + [Self.version]
        header.u64(UInt64(body.count))
        return try Deflate.compress(body, after: header.bytes)
    }

    /// Everything after the magic and the version byte, uncompressed.
    private func encodedBody() throws -> [UInt8] {
        func describe(_ timeline: Timeline) -> JSONValue {
            [
                "evictedThrough": .string(String(timeline.evictedThrough)),
                "oldest": timeline.oldest.map { .string(String($0)) } ?? .null,
            ]
        }
        let header: JSONValue = [
            "anchorWall": .number(anchorWall),
            "device": describe(deviceTimeline),
            "apps": .array(apps.map { app in .object(["id": .string(app.id), "timeline": describe(app.timeline)]) }),
            "idempotency": .array(
                answers.map { answer in
                    [
                        "app": answer.app.map(JSONValue.string) ?? .null, "key": .string(answer.key),
                        "fp": .string(String(answer.fingerprint)),
                    ]
                }),
        ]
        let appIndex = Dictionary(apps.enumerated().map { ($1.id, UInt32($0)) }) { first, _ in first }
        // Room for about all of it at once (32 bytes an entry: its fixed fields and its length take 17, the other
        // 15 a short session's or deleted app's name with its length; a blob's length 4), so the body is not
        // copied into buffers of twice its size as it grows; longer names only make it grow once more.
        var out = ByteWriter(
            reservingCapacity: 64 * 1024 + entries.reduce(0) { $0 + 32 + $1.encoded.count }
                + answers.reduce(0) { $0 + 4 + $1.body.count } + (recording ?? []).reduce(0) { $0 + 4 + $1.count })
        out.blob(JSONWriter.encode(header))
        out.blob(Array(try JSONEncoder().encode(device)))
        out.u32(UInt32(entries.count))
        for entry in entries {
            // The app by its index when it has a timeline (its entries from its oldest on are in it), else
            // (a deleted app's entries, still in the device's timeline) by name.
            let index = entry.app.flatMap { appIndex[$0] }
            let named = index == nil ? entry.app : nil
            out.u64(entry.seq)
            out.byte((entry.session != nil ? 4 : 0) | (named != nil ? 8 : 0))
            out.u32(index ?? Self.noApp)
            if let named { out.blob(Array(named.utf8)) }
            if let session = entry.session { out.blob(Array(session.utf8)) }
            out.blob(entry.encoded)
        }
        for answer in answers { out.blob(answer.body) }
        if let recording {
            out.u32(UInt32(recording.count))
            for record in recording { out.blob(record) }
        }
        return out.bytes
    }

    /// Reads a snapshot of any version; throws `CorruptRecord` on bytes that are not one, `UnknownVersion` on a
    /// newer format.
    package init(bytes: [UInt8]) throws {
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
        func timeline(_ description: JSONValue?) -> Timeline {
            Timeline(
                evictedThrough: description?["evictedThrough"]?.stringValue.flatMap { UInt64($0) } ?? 0,
                oldest: description?["oldest"]?.stringValue.flatMap { UInt64($0) })
        }
        deviceTimeline = timeline(header["device"])
        let timelines: [(id: String, timeline: Timeline)] = try apps.map { app in
            guard let id = app["id"]?.stringValue else { throw CorruptRecord() }
            return (id, timeline(app["timeline"]))
        }
        self.apps = timelines
        let count = try input.u32()
        var entries: [Entry] = []
        entries.reserveCapacity(Int(min(count, 1 << 16)))
        for _ in 0..<count {
            let seq = try input.u64()
            let flags = try input.byte()
            let app = try input.u32()
            let named = flags & 8 != 0 ? String(decoding: try input.blob(), as: UTF8.self) : nil
            let session = flags & 4 != 0 ? String(decoding: try input.blob(), as: UTF8.self) : nil
            guard app == Self.noApp || Int(app) < timelines.count else { throw CorruptRecord() }
            let index = app == Self.noApp ? nil : Int(app)
            let appID = named ?? index.map { timelines[$0].id }
            let stored = Array(try input.blob())
            let encoded: [UInt8]
            if version >= 4 {
                encoded = stored
            } else {
                // Stored as the API served it: the API's reading of it, in the current form.
                guard let served = (try? JSONParser.parse(stored)).flatMap(EntryDecoder.entry), served.seq == seq
                else { throw CorruptRecord() }
                var w = ByteWriter()
                EntryCoding.encode(served, into: &w)
                encoded = w.bytes
            }
            entries.append(Entry(seq: seq, app: appID, session: session, encoded: encoded, appTimeline: index))
        }
        self.entries = entries
        self.answers = try answers.map { item in
            guard let stored = item["key"]?.stringValue, let print = item["fp"]?.stringValue.flatMap({ UInt64($0) })
            else { throw CorruptRecord() }
            let (app, key): (String?, String)
            if version >= 3 {
                (app, key) = (item["app"]?.stringValue, stored)
            } else {
                // Versions 1 and 2: the key scoped to the path, and the status of a first answer (always 2xx).
                guard let status = item["status"]?.numberValue, (200...299).contains(status) else {
                    throw CorruptRecord()
                }
                (app, key) = PathScopedKey.split(stored)
            }
            return Answer(app: app, key: key, fingerprint: print, body: Array(try input.blob()))
        }
        if input.isAtEnd {
            recording = nil
        } else {
            let count = try input.u32()
            var records: [[UInt8]] = []
            for _ in 0..<count { records.append(Array(try input.blob())) }
            recording = records
        }
        guard input.isAtEnd else { throw CorruptRecord() }
    }
}

extension StoredSnapshot {
    /// A snapshot in a format newer than this build reads.
    package struct UnknownVersion: Error, CustomStringConvertible {
        package var version: UInt8
        package var description: String { "a snapshot has format version \(version), newer than this build reads" }
    }
}
