import Foundation
import HTTPServer
import LifecycleCore

/// A device as saved in the store, so start-up need not replay its whole journal: the core state,
/// the retained timelines and the remembered idempotent answers.
struct DeviceSnapshot {
    var anchorWall: Double
    var device: Device
    var deviceTimeline: EntryRing
    var appTimelines: [String: EntryRing]
    var idempotency: [(key: String, answer: IdempotencyCache.Answer)]

    /// `{"anchorWall", "device" (the core's Codable form), "entries" (every retained entry once, by seq),
    /// "timelines" ({"": device ring, app id: ring} → evictedThrough and the oldest seq held), "idempotency"}`.
    /// Entries, answers and the core travel as JSON text inside strings, so they come back byte for byte.
    func encoded() throws -> [UInt8] {
        var entries: [UInt64: [UInt8]] = [:]
        var timelines: [String: JSONValue] = [:]
        func describe(_ ring: EntryRing) -> JSONValue {
            for entry in ring.retained { entries[entry.seq] = entry.json }
            return [
                "evictedThrough": .string(String(ring.evictedThrough)),
                "oldest": ring.oldestSeq.map { .string(String($0)) } ?? .null,
            ]
        }
        timelines[""] = describe(deviceTimeline)
        for (app, ring) in appTimelines { timelines[app] = describe(ring) }
        let core = try JSONEncoder().encode(device)
        var w = JSONWriter(reservingCapacity: core.count + entries.count * 200 + 1024)
        w.beginObject()
        w.field("anchorWall")
        w.number(anchorWall)
        w.field("device")
        w.string(String(decoding: core, as: UTF8.self))
        w.field("timelines")
        w.value(.object(timelines))
        w.field("entries")
        w.beginArray()
        for seq in entries.keys.sorted() { w.string(String(decoding: entries[seq]!, as: UTF8.self)) }
        w.endArray()
        w.field("idempotency")
        w.beginArray()
        for (key, answer) in idempotency {
            w.beginObject()
            w.field("key")
            w.string(key)
            w.field("fp")
            w.string(String(answer.fingerprint))
            w.field("status")
            w.int(answer.response.status)
            w.field("body")
            w.string(String(decoding: answer.response.body, as: UTF8.self))
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    init(
        anchorWall: Double, device: Device, deviceTimeline: EntryRing, appTimelines: [String: EntryRing],
        idempotency: [(key: String, answer: IdempotencyCache.Answer)]
    ) {
        self.anchorWall = anchorWall
        self.device = device
        self.deviceTimeline = deviceTimeline
        self.appTimelines = appTimelines
        self.idempotency = idempotency
    }

    init(bytes: [UInt8], historyLimit: Int) throws {
        let value = try JSONParser.parse(bytes)
        guard let anchor = value["anchorWall"]?.numberValue, let core = value["device"]?.stringValue,
            case .object(let timelines)? = value["timelines"], case .array(let entries)? = value["entries"],
            case .array(let answers)? = value["idempotency"]
        else { throw JournalEntry.CorruptRecord() }
        anchorWall = anchor
        device = try JSONDecoder().decode(Device.self, from: Data(core.utf8))
        func ring(_ key: String) -> (EntryRing, UInt64) {
            let evicted = timelines[key]?["evictedThrough"]?.stringValue.flatMap { UInt64($0) } ?? 0
            let oldest = timelines[key]?["oldest"]?.stringValue.flatMap { UInt64($0) } ?? .max
            return (EntryRing(limit: historyLimit, evictedThrough: evicted), oldest)
        }
        var (deviceRing, deviceOldest) = ring("")
        var apps: [String: (EntryRing, UInt64)] = [:]
        for key in timelines.keys where !key.isEmpty { apps[key] = ring(key) }
        for text in entries {
            guard let json = text.stringValue.map({ Array($0.utf8) }) else { throw JournalEntry.CorruptRecord() }
            let entry = try JSONParser.parse(json)
            guard let seq = entry["seq"]?.numberValue.map({ UInt64($0) }), let kind = entry["kind"]?.stringValue else {
                throw JournalEntry.CorruptRecord()
            }
            let stored = StoredEntry(
                seq: seq, isCallback: kind == "callback", isNotification: kind == "notification", json: json)
            if seq >= deviceOldest { _ = deviceRing.append(stored) }
            if let app = entry["app"]?.stringValue, let (_, oldest) = apps[app], seq >= oldest {
                _ = apps[app]!.0.append(stored)
            }
        }
        deviceTimeline = deviceRing
        appTimelines = apps.mapValues(\.0)
        idempotency = try answers.map { item in
            guard let key = item["key"]?.stringValue, let print = item["fp"]?.stringValue.flatMap({ UInt64($0) }),
                let status = item["status"]?.numberValue, let body = item["body"]?.stringValue
            else { throw JournalEntry.CorruptRecord() }
            let response = HTTPResponse(
                status: Int(status), headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            return (key, IdempotencyCache.Answer(fingerprint: print, response: response))
        }
    }
}
