import Dispatch
import Locking
import Synchronization

/// The daemon's budget of retained timeline entries and recorded inputs, in bytes over every device
/// (`--history-bytes-total`), beside each device's own `HistoryBounds`. Each device reports what it holds
/// after each change; once the total passes the budget, the devices holding the most give up their oldest
/// entries first (a cursor behind what is left answers 410, as for any eviction), and one with no entry left
/// to give up its recording (it can no longer be exported), until it fits again.
package final class HistoryBudget: Sendable {
    package let limit: Int
    private let holders = Protected<Holders>(Holders())
    private let trimming = Atomic<Bool>(false)

    private struct Holders {
        var total = 0
        var byHost: [ObjectIdentifier: (host: WeakHost, bytes: Int)] = [:]
    }

    private final class WeakHost: @unchecked Sendable {
        weak var host: DeviceHost?
        init(_ host: DeviceHost) { self.host = host }
    }

    package init(limit: Int) {
        self.limit = limit
    }

    /// Bytes retained over every device now.
    package var total: Int { holders.withLock { $0.total } }

    /// `host` holds `bytes` now; trims in the background when the total passes the budget.
    func holds(_ host: DeviceHost, bytes: Int) {
        let over = holders.withLock { holders -> Bool in
            let key = ObjectIdentifier(host)
            let before = holders.byHost[key]?.bytes ?? 0
            holders.total += bytes - before
            if let holder = holders.byHost[key] {
                holders.byHost[key] = (holder.host, bytes)
            } else {
                holders.byHost[key] = (WeakHost(host), bytes)
            }
            return holders.total > limit
        }
        if over { trimSoon() }
    }

    /// The host is gone (deleted, reset away): what it held is free.
    func forget(_ host: ObjectIdentifier) {
        holders.withLock { holders in
            if let holder = holders.byHost.removeValue(forKey: host) { holders.total -= holder.bytes }
        }
    }

    /// One trim at a time, off the caller's thread (a store completion).
    private func trimSoon() {
        guard trimming.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            trim()
            trimming.store(false, ordering: .releasing)
            // A change that came in while the flag was up may have left the total over again.
            if holders.withLock({ $0.total > limit }) { trimSoon() }
        }
    }

    /// Takes the oldest entries of the device holding the most until the total fits.
    package func trim() {
        while true {
            let largest = holders.withLock { holders -> (DeviceHost?, ObjectIdentifier, excess: Int)? in
                guard holders.total > limit,
                    let (key, holder) = holders.byHost.max(by: { $0.value.bytes < $1.value.bytes })
                else { return nil }
                return (holder.host.host, key, holders.total - limit)
            }
            guard let (host, key, excess) = largest else { return }
            guard let host else {
                forget(key)
                continue
            }
            let (evicted, dropped, bytes) = host.shared.withLock { shared in
                let evicted = shared.evict(bytes: excess)
                let dropped = evicted == 0 && shared.recording.bytes > 0
                if dropped { shared.recording.stop() }
                return (evicted, dropped, shared.heldBytes)
            }
            if evicted > 0 { host.hooks.entriesEvicted(evicted) }
            if dropped { host.stopRecording() }
            holders.withLock { holders in
                guard let holder = holders.byHost[key] else { return }
                holders.total += bytes - holder.bytes
                // A device that could give nothing up holds nothing this budget can take.
                let gaveUp = evicted > 0 || dropped
                holders.byHost[key] = (holder.host, gaveUp ? bytes : 0)
                if !gaveUp { holders.total -= bytes }
            }
        }
    }
}
