package import LifecycleCore
import LifecycleWire

/// The JSON bodies a host completes with.
extension DeviceHost {
    package func appJSON(_ appID: String) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 768)
        SnapshotEncoder.app(device.app(appID)!, on: device, into: &writer)
        return writer.bytes
    }

    package func eventsBody(_ outcome: Outcome, stored: [StoredEntry], app: String?) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 1024 + stored.count * 160)
        w.beginObject()
        if let app, let instance = device.app(app) {
            w.field("app")
            SnapshotEncoder.app(instance, on: device, into: &w)
        } else {
            w.field("device")
            SnapshotEncoder.device(device, into: &w)
        }
        w.field("entries")
        w.beginArray()
        for entry in stored { w.raw(entry.json) }
        w.endArray()
        w.field("changed")
        w.bool(outcome.changed)
        if let applied = outcome.applied {
            w.field("applied")
            w.value(.array(applied.map(EventEncoder.json)))
        }
        w.endObject()
        return w.bytes
    }
}
