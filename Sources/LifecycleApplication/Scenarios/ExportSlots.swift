import LifecycleCore
package import LifecycleWire
import Locking

/// The exports under way: at most `limit` in the daemon and one per namespace, so that what they hold (each
/// its buffer) and the work they do stay bounded however many are asked for. One more answers
/// `429 too-many-requests` with `Retry-After`.
package final class ExportSlots: Sendable {
    /// The most exports at once.
    package let limit: Int
    /// The exports under way, by namespace.
    private let running = Protected<[String: Slot]>([:])

    package init(limit: Int) {
        self.limit = limit
    }

    /// An export's place, held from its request until its stream closes (or it answers without one).
    package final class Slot: Sendable {
        package let namespace: String
        private let slots: ExportSlots
        /// The bytes the stream the export writes to holds now, once it answers with one.
        private let buffered = Protected<(@Sendable () -> Int)?>(nil)

        fileprivate init(namespace: String, slots: ExportSlots) {
            self.namespace = namespace
            self.slots = slots
        }

        /// Bytes the export's stream holds now.
        var bytesHeld: Int { buffered.withLock { $0 }?() ?? 0 }

        /// Counts the bytes of the export's stream, `bufferedBytes`, among what the exports hold.
        package func hold(_ bufferedBytes: @escaping @Sendable () -> Int) {
            buffered.withLock { $0 = bufferedBytes }
        }

        /// Gives the place back; later calls do nothing.
        package func release() {
            slots.running.withLock { running in
                if running[namespace] === self { running[namespace] = nil }
            }
            buffered.withLock { $0 = nil }
        }
    }

    /// A place for an export of `namespace`, or the `429` that says why there is none.
    package func take(_ namespace: String) throws(APIError) -> Slot {
        let slot = Slot(namespace: namespace, slots: self)
        let refusal = running.withLock { running -> APIError? in
            if running[namespace] != nil {
                return APIError(
                    .tooManyRequests,
                    "the namespace \(namespace) has an export under way, and a namespace has one at a time; "
                        + "try again once it is done", extra: ["limit": .number(1)], headers: Self.retry)
            }
            if running.count >= limit {
                return APIError(
                    .tooManyRequests,
                    "the daemon runs \(limit) exports at once, the most it runs, and has that many under way; "
                        + "try again once one is done", extra: ["limit": .number(Double(limit))], headers: Self.retry)
            }
            running[namespace] = slot
            return nil
        }
        if let refusal { throw refusal }
        return slot
    }

    /// Exports under way now.
    package var count: Int { running.withLock { $0.count } }

    /// Bytes the exports under way hold in their buffers now.
    package var bytesHeld: Int {
        running.withLock { Array($0.values) }.reduce(0) { $0 + $1.bytesHeld }
    }

    /// Seconds a refused export waits before asking again.
    private static let retry = [(name: "Retry-After", value: "2")]
}
