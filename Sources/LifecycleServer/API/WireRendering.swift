import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire

/// What hosts keep as rendered, in the API's JSON: each entry as `GET .../timeline` serves it, and the
/// answer to `POST .../events`.
struct WireRendering: HostRendering {
    /// Each entry encoded once, through one buffer, into an array of its own size: entries are kept for
    /// long, and an array of the writer's reserved size would hold about twice what one needs.
    func render(_ entries: [TimelineEntry]) -> [RenderedEntry] {
        var w = JSONWriter(reservingCapacity: 512)
        return entries.map { entry in
            w.removeAll()
            EntryEncoder.write(entry, into: &w)
            // `bytes` is a copy of exactly the entry's size, never the writer's buffer.
            return RenderedEntry(entry, json: w.bytes)
        }
    }

    /// `{"app" | "device": <snapshot>, "entries": [...], "changed": ..., "applied"?: [...]}`.
    func answer(to applied: AppliedEvents) -> [UInt8] {
        let device = applied.device
        var w = JSONWriter(reservingCapacity: 1024 + applied.entries.count * 160)
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
        for entry in applied.entries { w.raw(entry.json) }
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
