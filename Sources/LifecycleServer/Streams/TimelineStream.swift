import HTTPServer
import LifecycleCore
import LifecycleHosting
import Locking

/// A timeline (or callbacks) as events: every retained entry after the cursor, then each new one as its
/// device publishes it. One `id: <seq>`, `event: entry`, `data: <entry>` per entry.
///
/// It reads on from its cursor in the retained entries whenever the client has taken what was sent, so a
/// slow client costs no memory: it falls behind in the timeline, and if it falls past what is retained it
/// gets `event: gone` (`{"oldestSeq": n}`) and the stream ends, as a page read answers 410.
final class TimelineStream: LiveStream, TimelineWatcher, @unchecked Sendable {
    let host: DeviceHost
    /// The app whose timeline this is; nil for the device's.
    let app: String?
    private let filter: @Sendable (RenderedEntry) -> Bool
    /// The last `seq` sent (or skipped); `explicit` once it came from the client or from an entry sent.
    private let cursor: Protected<(after: UInt64, explicit: Bool)>
    /// Entries per chunk at most; the chunk also stops past `maxChunkBytes`.
    static let maxChunkEntries = 200
    static let maxChunkBytes = 64 << 10

    init(
        hub: StreamHub, host: DeviceHost, app: String?, after: UInt64?,
        filter: @escaping @Sendable (RenderedEntry) -> Bool
    ) {
        self.host = host
        self.app = app
        self.filter = filter
        cursor = Protected((after ?? 0, after != nil))
        super.init(hub: hub)
    }

    override func produce() -> Produced {
        let (after, explicit) = cursor.withLock { $0 }
        let outcome = host.shared.withLock { shared -> (Produced, UInt64) in
            guard !shared.gone else { return (.last(StreamEnd.deleted.event), after) }
            let ring: EntryRing
            if let app {
                guard shared.device.app(app) != nil else { return (.last(StreamEnd.deleted.event), after) }
                ring = shared.appTimelines[app] ?? EntryRing(limit: 1)
            } else {
                ring = shared.deviceTimeline
            }
            var from = after
            if after < ring.evictedThrough {
                // Without a cursor the stream starts at the oldest entry held, as a page read does.
                guard !explicit else {
                    let oldest = ring.oldestSeq ?? ring.evictedThrough + 1
                    return (.last(EventStreamText.event("gone", data: Array(#"{"oldestSeq":\#(oldest)}"#.utf8))), after)
                }
                from = ring.evictedThrough
            }
            let items = ring.page(
                after: from, limit: Self.maxChunkEntries, maxBytes: Self.maxChunkBytes, where: filter)
            guard let last = items.last else {
                // Nothing matched up to the newest entry: skip past it, so the next look starts there.
                return (.nothing, max(from, ring.newestSeq ?? from))
            }
            var out: [UInt8] = []
            out.reserveCapacity(items.reduce(0) { $0 + $1.json.count + 40 })
            for item in items { EventStreamText.append(event: "entry", id: item.seq, data: item.json, to: &out) }
            return (.bytes(out), last.seq)
        }
        cursor.withLock { $0 = (outcome.1, true) }
        return outcome.0
    }

    func timelineChanged() { http.wake() }

    override func detach() {
        _ = host.shared.withLock { $0.watchers.removeValue(forKey: ObjectIdentifier(self)) }
    }
}
