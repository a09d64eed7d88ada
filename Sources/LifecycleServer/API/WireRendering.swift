import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire

/// How hosts' results look in the API's JSON: each retained entry as `GET .../timeline` serves it, and the
/// answer to `POST .../events`.
struct WireRendering: HostRendering {
    func entry(served: [UInt8]) -> TimelineEntry? {
        (try? JSONParser.parse(served)).flatMap(EntryDecoder.entry)
    }

    /// Writes retained entries as items of the array open in `w`, and stops once `w` holds `maxBytes` (so at
    /// most one entry past it: a page always moves on). Returns the `seq` of the last one written.
    static func items(_ entries: [RetainedEntry], maxBytes: Int, into w: inout JSONWriter) -> UInt64? {
        var last: UInt64?
        // `entry` is never nil: entries are checked as they are retained.
        for retained in entries where w.count < maxBytes {
            guard let entry = retained.entry else { continue }
            EntryEncoder.write(entry, into: &w)
            last = retained.seq
        }
        return last
    }

    /// One retained entry as served; nil never happens (entries are checked as they are retained).
    static func json(_ retained: RetainedEntry, into w: inout JSONWriter) -> Bool {
        guard let entry = retained.entry else { return false }
        w.removeAll()
        EntryEncoder.write(entry, into: &w)
        return true
    }

    /// `{"app" | "device": <snapshot>, "entries": [...], "changed": ..., "applied"?: [...]}`.
    func answer(to applied: AppliedEvents) -> [UInt8] {
        let device = applied.device
        var w = JSONWriter(reservingCapacity: 1024 + applied.outcome.entries.count * 160)
        w.beginObject()
        if let app = applied.app, let instance = device.app(app) {
            w.field("app")
            SnapshotEncoder.app(instance, on: device, into: &w)
        } else {
            w.field("device")
            SnapshotEncoder.device(device, into: &w)
        }
        w.field("entries")
        w.beginArray()
        for entry in applied.outcome.entries { EntryEncoder.write(entry, into: &w) }
        w.endArray()
        w.field("changed")
        w.bool(applied.outcome.changed)
        if let steps = applied.outcome.applied {
            w.field("applied")
            w.value(.array(steps.map(EventEncoder.json)))
        }
        w.endObject()
        return w.bytes
    }

    /// An app as `GET /v1/apps/{id}` serves it, on the device it is on.
    static func app(_ id: String, on device: Device) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 768)
        if let app = device.app(id) { SnapshotEncoder.app(app, on: device, into: &w) }
        return w.bytes
    }
}
