import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

/// A timeline (or callbacks) as events: every retained entry after the cursor, then each new one as its
/// device publishes it. One `id: <seq>`, `event: entry`, `data: <entry>` per entry.
///
/// It reads on from its cursor in the retained entries whenever the client has taken what was sent, so a
/// slow client costs no memory: it falls behind in the timeline, and if it falls past what is retained it
/// gets `event: gone` (`{"oldestSeq": n}`) and the stream ends, as a page read answers 410.
final class TimelineEventStream: LiveEventStream, TimelineWatcher, @unchecked Sendable {
    let host: DeviceHost
    /// The app whose timeline this is; nil for the device's.
    let app: String?
    private let filter: @Sendable (RetainedEntry) -> Bool
    /// The last `seq` sent (or skipped); `explicit` once it came from the client or from an entry sent.
    private let cursor: Protected<(after: UInt64, explicit: Bool)>
    /// The live callback announced (`event: pending-callback`) whose end is not yet sent.
    private let announcedCallback = Protected<(id: Int, app: String)?>(nil)
    /// Entries per chunk at most; the chunk also stops past `maxChunkBytes`.
    static let maxChunkEntries = 200
    static let maxChunkBytes = 64 << 10

    init(
        hub: EventStreamHub, host: DeviceHost, app: String?, after: UInt64?,
        filter: @escaping @Sendable (RetainedEntry) -> Bool
    ) {
        self.host = host
        self.app = app
        self.filter = filter
        cursor = Protected((after ?? 0, after != nil))
        super.init(hub: hub)
    }

    override func produce() -> Produced {
        let announced = announcements()
        let entries = produceEntries()
        guard !announced.isEmpty else { return entries }
        switch entries {
        case .nothing: return .bytes(announced)
        case .bytes(let bytes): return .bytes(announced + bytes)
        case .last(let bytes): return .last(announced + bytes)
        }
    }

    /// `event: pending-callback` when a callback of the app (of any app of the device, for its timeline) begins to
    /// wait for its answer over HTTP, its data the pending callback as `GET .../pending-callback` shows it; then
    /// `event: pending-callback-ended` (`{"id", "app", "outcome"}`) once it is answered, times out or is abandoned
    /// (LIFECYCLE §13). Neither has an `id:`: a reconnecting reader resumes by entries, and is told of the callback
    /// pending then.
    private func announcements() -> [UInt8] {
        let before = announcedCallback.withLock { $0 }
        let news = host.pendingCallbacks.news(for: app, announced: before?.id)
        var out: [UInt8] = []
        if let ended = news.ended, let before {
            var w = JSONWriter(reservingCapacity: 96)
            LiveAnswerEncoder.ended(id: ended.id, app: before.app, outcome: ended.outcome?.rawValue, into: &w)
            EventStreamText.append(event: "pending-callback-ended", data: w.bytes, to: &out)
        }
        if let pending = news.pending {
            var w = JSONWriter(reservingCapacity: 512)
            LiveAnswerEncoder.pending(id: pending.id, pending.callback, deadline: pending.deadline, into: &w)
            EventStreamText.append(event: "pending-callback", data: w.bytes, to: &out)
        }
        if news.ended != nil || news.pending != nil {
            announcedCallback.withLock { $0 = news.pending.map { ($0.id, $0.callback.app) } }
        }
        return out
    }

    /// The retained entries after the cursor, as events.
    private func produceEntries() -> Produced {
        let (after, explicit) = cursor.withLock { $0 }
        // The entries are taken under the host's lock and rendered after it: its device's queue is not held
        // up by readers.
        let taken = host.shared.withLock { shared -> Result<([RetainedEntry], ServedEntries), Early> in
            guard !shared.gone else { return .failure(Early(.last(EventStreamEnd.deleted.event), after)) }
            let ring: EntryRing
            if let app {
                guard shared.device.app(app) != nil else {
                    return .failure(Early(.last(EventStreamEnd.deleted.event), after))
                }
                ring = shared.appTimelines[app] ?? EntryRing(limit: 1)
            } else {
                ring = shared.deviceTimeline
            }
            var from = after
            if after < ring.evictedThrough {
                // Without a cursor the stream starts at the oldest entry held, as a page read does.
                guard !explicit else {
                    let oldest = ring.oldestSeq ?? ring.evictedThrough + 1
                    let gone = EventStreamText.event("gone", data: Array(#"{"oldestSeq":\#(oldest)}"#.utf8))
                    return .failure(Early(.last(gone), after))
                }
                from = ring.evictedThrough
            }
            let items = ring.page(after: from, limit: Self.maxChunkEntries, where: filter)
            // Nothing matched up to the newest entry: skip past it, so the next look starts there.
            guard !items.isEmpty else { return .failure(Early(.nothing, max(from, ring.newestSeq ?? from))) }
            return .success((items, shared.served))
        }
        let outcome: (Produced, UInt64)
        switch taken {
        case .failure(let early):
            outcome = (early.produced, early.cursor)
        case .success(let (items, served)):
            var out: [UInt8] = []
            out.reserveCapacity(items.reduce(0) { $0 + $1.encodedCount * 3 + 40 })
            var json = JSONWriter(reservingCapacity: 512)
            var written = after
            for item in items
            where out.count < Self.maxChunkBytes && WireRendering.json(item, served: served, into: &json) {
                EventStreamText.append(event: "entry", id: item.seq, data: json.bytes, to: &out)
                written = item.seq
            }
            outcome = (.bytes(out), written)
        }
        cursor.withLock { $0 = (outcome.1, true) }
        return outcome.0
    }

    /// What a look answers without rendering entries, and the cursor after it.
    private struct Early: Error {
        var produced: Produced
        var cursor: UInt64
        init(_ produced: Produced, _ cursor: UInt64) {
            self.produced = produced
            self.cursor = cursor
        }
    }

    func timelineChanged() { http.wake() }

    override func detach() {
        _ = host.shared.withLock { $0.watchers.removeValue(forKey: ObjectIdentifier(self)) }
    }
}
