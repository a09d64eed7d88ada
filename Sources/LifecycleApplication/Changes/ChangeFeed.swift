import LifecycleCore
package import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

/// Changes to a set of devices and their apps, fanned out to the `changes` streams following it. One feed
/// per namespace; its hosts report to it through `HostObserver` (`NamespaceObserver`).
package final class ChangeFeed: Sendable {
    /// The devices the feed covers now, for a stream's first snapshot.
    let devices: @Sendable () -> [DeviceHost]
    private let subscribers = Protected<[ObjectIdentifier: any ChangeSubscriber]>([:])

    init(devices: @escaping @Sendable () -> [DeviceHost]) {
        self.devices = devices
    }

    package func subscribe(_ stream: any ChangeSubscriber) {
        subscribers.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    package func unsubscribe(_ stream: any ChangeSubscriber) {
        _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// `host` published a change: it and `apps` changed, `removedApp` (if any) is gone.
    package func changed(_ host: DeviceHost, apps: Set<String>, removedApp: String?) {
        let subscribed = subscribers.withLock { Array($0.values) }
        guard !subscribed.isEmpty else { return }
        var marks = [Mark(kind: .device, id: host.id, host: host, deleted: false)]
        for app in apps { marks.append(.init(kind: .app, id: app, host: host, deleted: false)) }
        if let removedApp { marks.append(.init(kind: .app, id: removedApp, host: host, deleted: true)) }
        for subscriber in subscribed { subscriber.mark(marks) }
    }

    /// Ends every stream following the feed with `event: end` and `reason` (the namespace was reset or
    /// deleted).
    package func endAll(_ reason: EventStreamEnd) {
        for stream in subscribers.withLock({ Array($0.values) }) { stream.end(reason) }
    }

    /// `host` was deleted with `apps`.
    func deleted(_ host: DeviceHost, apps: [String]) {
        let subscribed = subscribers.withLock { Array($0.values) }
        guard !subscribed.isEmpty else { return }
        var marks = apps.map { Mark(kind: .app, id: $0, host: host, deleted: true) }
        marks.append(.init(kind: .device, id: host.id, host: host, deleted: true))
        for subscriber in subscribed { subscriber.mark(marks) }
    }

    /// `{"devices": [...], "apps": [...]}` for every device of the feed (sorted by id) and its apps, with
    /// the hash of each resource's JSON.
    package func snapshot() -> ([UInt8], [Key: UInt64]) {
        let hosts = devices().sorted { $0.id < $1.id }
        var hashes: [Key: UInt64] = [:]
        var devices: [[UInt8]] = []
        var apps: [[UInt8]] = []
        for host in hosts {
            host.shared.withLock { shared in
                guard !shared.gone else { return }
                let device = shared.current
                var w = JSONWriter(reservingCapacity: 512)
                SnapshotEncoder.device(device, into: &w)
                let json = w.bytes
                hashes[Key(kind: .device, id: device.id)] = ContentHash.hash(json)
                devices.append(json)
                for id in device.appOrder {
                    guard let app = device.app(id) else { continue }
                    var a = JSONWriter(reservingCapacity: SnapshotEncoder.appBytes)
                    SnapshotEncoder.app(app, on: device, into: &a)
                    hashes[Key(kind: .app, id: id)] = ContentHash.hash(a.bytes)
                    apps.append(a.bytes)
                }
            }
        }
        var w = JSONWriter(reservingCapacity: 64 + (devices + apps).reduce(0) { $0 + $1.count + 1 })
        w.beginObject()
        w.field("devices")
        w.beginArray()
        for device in devices { w.raw(device) }
        w.endArray()
        w.field("apps")
        w.beginArray()
        for app in apps { w.raw(app) }
        w.endArray()
        w.endObject()
        return (w.bytes, hashes)
    }
}
