import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

/// The `changes` stream of a `ChangeFeed`: first `event: snapshot` with every device and app, then
/// `event: device` / `event: app` (a snapshot of the one that changed) and `event: deleted`
/// (`{"kind": "app"|"device", "id": ...}`).
///
/// Changes are kept as marks, one per resource, and read out as the client takes what was sent: a resource
/// that changes again before its mark is sent keeps its one mark, and what is sent is its state at that
/// moment. So a client that reads slowly costs at most one mark per resource and always ends with the
/// latest; a snapshot identical to the last one sent for that resource is skipped.
final class ChangeEventStream: LiveEventStream, ChangeSubscriber, @unchecked Sendable {
    typealias Kind = ChangeFeed.Kind
    typealias Key = ChangeFeed.Key
    typealias Mark = ChangeFeed.Mark

    private struct Pending {
        var snapshotDue = true
        /// Resources to send, oldest mark first; `marks` holds the latest mark of each.
        var order: [Key] = []
        var marks: [Key: Mark] = [:]
        /// A hash of the last JSON sent per resource, to skip sending the same again.
        var sent: [Key: UInt64] = [:]
    }

    private let feed: ChangeFeed
    private let pending = Protected(Pending())
    static let maxChunkBytes = 64 << 10

    init(hub: EventStreamHub, feed: ChangeFeed) {
        self.feed = feed
        super.init(hub: hub)
    }

    /// Notes changes; merged with the marks not yet sent.
    func mark(_ marks: [Mark]) {
        pending.withLock { pending in
            for mark in marks {
                let key = mark.key
                if pending.marks.updateValue(mark, forKey: key) == nil { pending.order.append(key) }
            }
        }
        http.wake()
    }

    /// How many changes wait to be sent (at most one per resource).
    var backlog: Int { pending.withLock { $0.order.count } }

    override func produce() -> Produced {
        if pending.withLock({ $0.snapshotDue }) {
            let (bytes, hashes) = feed.snapshot()
            pending.withLock { pending in
                pending.snapshotDue = false
                pending.sent = hashes
            }
            return .bytes(EventStreamText.event("snapshot", data: bytes))
        }
        var out: [UInt8] = []
        while out.count < Self.maxChunkBytes {
            guard let mark = takeMark() else { break }
            guard let (name, json) = encode(mark) else { continue }
            let hash = ContentHash.hash(json)
            let fresh = pending.withLock { pending -> Bool in
                if name == "deleted" {
                    pending.sent[mark.key] = nil
                    return true
                }
                if pending.sent[mark.key] == hash { return false }
                pending.sent[mark.key] = hash
                return true
            }
            if fresh { EventStreamText.append(event: name, data: json, to: &out) }
        }
        return out.isEmpty ? .nothing : .bytes(out)
    }

    private func takeMark() -> Mark? {
        pending.withLock { pending in
            guard !pending.order.isEmpty else { return nil }
            let key = pending.order.removeFirst()
            return pending.marks.removeValue(forKey: key)
        }
    }

    /// The event for a mark as things are now: a snapshot, or `deleted` when the resource is gone.
    private func encode(_ mark: Mark) -> (String, [UInt8])? {
        let current =
            mark.deleted
            ? nil
            : mark.host.shared.withLock { shared -> [UInt8]? in
                guard !shared.gone else { return nil }
                var w = JSONWriter(reservingCapacity: SnapshotEncoder.appBytes)
                switch mark.kind {
                case .device:
                    SnapshotEncoder.device(shared.current, into: &w)
                case .app:
                    let device = shared.current
                    guard let app = device.app(mark.id) else { return nil }
                    SnapshotEncoder.app(app, on: device, into: &w)
                }
                return w.bytes
            }
        if let current { return (mark.kind.rawValue, current) }
        var w = JSONWriter(reservingCapacity: 64)
        w.beginObject()
        w.field("kind")
        w.string(mark.kind.rawValue)
        w.field("id")
        w.string(mark.id)
        w.endObject()
        return ("deleted", w.bytes)
    }

    override func detach() {
        feed.unsubscribe(self)
    }
}
