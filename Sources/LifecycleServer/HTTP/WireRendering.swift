import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire

/// How hosts' results look in the API's JSON: each retained entry as `GET .../timeline` serves it, and the
/// answer to `POST .../events`.
struct WireRendering: HostRendering {
    /// Writes retained entries as items of the array open in `w`, and stops once `w` holds `maxBytes` (so at
    /// most one entry past it: a page always moves on). Returns the `seq` of the last one written.
    /// An entry of `served` is copied from there, not rendered again.
    static func items(
        _ entries: [RetainedEntry], served: ServedEntries, maxBytes: Int, into w: inout JSONWriter
    ) -> UInt64? {
        var last: UInt64?
        for retained in entries where w.count < maxBytes {
            guard write(retained, served: served, into: &w) else { continue }
            last = retained.seq
        }
        return last
    }

    /// One retained entry as served, in place of what `w` held; false never happens (entries are checked as they
    /// are retained).
    static func json(_ retained: RetainedEntry, served: ServedEntries, into w: inout JSONWriter) -> Bool {
        w.removeAll()
        return write(retained, served: served, into: &w)
    }

    /// Writes `retained` as a value: copied from `served` when it holds it, else rendered from the compact form
    /// (`entry` is never nil: entries are checked as they are retained).
    private static func write(_ retained: RetainedEntry, served: ServedEntries, into w: inout JSONWriter) -> Bool {
        if served.withServed(retained.seq, { w.raw($0) }) { return true }
        guard let entry = retained.entry else { return false }
        EntryEncoder.write(entry, into: &w)
        return true
    }

    /// `{"app" | "device": <snapshot>, "entries": [...], "changed": ..., "applied"?: [...]}`.
    func answer(to applied: AppliedEvents, notingEntries: Bool) -> RenderedAnswer {
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
        var entries: [Range<Int>] = []
        if notingEntries { entries.reserveCapacity(applied.outcome.entries.count) }
        for entry in applied.outcome.entries {
            let start = w.count
            EntryEncoder.write(entry, into: &w)
            if notingEntries { entries.append(w.valueStart(from: start)..<w.count) }
        }
        w.endArray()
        w.field("changed")
        w.bool(applied.outcome.changed)
        if let steps = applied.outcome.applied {
            w.field("applied")
            w.value(.array(steps.map(EventEncoder.json)))
        }
        w.endObject()
        return RenderedAnswer(body: w.bytes, entries: entries)
    }

    /// An app as `GET /v1/apps/{id}` serves it, on the device it is on.
    static func app(_ id: String, on device: Device) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 768)
        if let app = device.app(id) { SnapshotEncoder.app(app, on: device, into: &w) }
        return w.bytes
    }
}
