import LifecycleCore
package import LifecycleHosting
package import LifecycleWire
import Locking

/// Pages of timelines, and the long polls that wait for one.
extension Application {
    /// The entries of the timeline of the app `app` on `host` (nil: the device's own) after `after` that pass
    /// `filter`, at most `limit`, with what readers were shown of them; or nil when the page is empty and the
    /// read parks: `parking` gives the poll to park (nil: the read does not wait), asked only while the daemon
    /// is ready; it is parked on the host until the host publishes entries. `404` for a device or app that is gone, `410` for a
    /// cursor (`explicitCursor`) before the oldest entry kept; the host's lock is held only to copy the page.
    package func page(
        of host: DeviceHost, app: String?, after: UInt64, explicitCursor: Bool, limit: Int,
        filter: (RetainedEntry) -> Bool, parking: () -> Poll?
    ) throws(APIError) -> (items: [RetainedEntry], served: ServedEntries)? {
        let ready = isReady
        return try host.shared.withLock { shared throws(APIError) -> ([RetainedEntry], ServedEntries)? in
            if let namespace = shared.deletedNamespace { throw .namespaceDeleted(namespace) }
            guard !shared.gone else { throw .notFound(app.map { "no app \($0)" } ?? "no device \(host.id)") }
            let ring: EntryRing
            if let app {
                guard shared.device.app(app) != nil else { throw .notFound("no app \(app)") }
                ring = shared.appTimelines[app] ?? EntryRing(limit: 1)
            } else {
                ring = shared.deviceTimeline
            }
            if explicitCursor, after < ring.evictedThrough {
                throw .gone(oldestSeq: ring.oldestSeq ?? ring.evictedThrough + 1)
            }
            let items = ring.page(after: after, limit: limit, where: filter)
            if items.isEmpty, ready, let poll = parking() {
                shared.park(poll, app: app)
                return nil
            }
            return (items, shared.served)
        }
    }
}
