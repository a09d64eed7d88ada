import Dispatch
import Locking
import Synchronization

/// The one budget of the memory clients make the daemon hold, in bytes, over every device (`--memory-bytes`)
/// and per namespace (`--namespace-memory-bytes`). Every device tells it, after each change, what it holds in
/// three parts (`DeviceHost.held`):
/// - **evictable**: its retained timeline entries and its recorded inputs;
/// - **answers**: the first answers it keeps for `Idempotency-Key` retries;
/// - **state**: what nothing evicts, its description and its apps' (`DeviceHost.describedBytes`).
///
/// Past a limit, the devices holding the most (of the daemon, or of the namespace over its own) give up
/// their oldest entries first (a cursor behind them answers 410), then their remembered answers (a retry of
/// such a key is applied anew), then their recordings (they can no longer be exported), until it fits. What
/// nothing evicts is refused instead: a new device, app or import whose description would not fit beside the
/// state already held answers `507 memory-budget-exceeded` (`refusal`). Imports and exports in flight are
/// bounded apart (their number and size), by a constant the documentation gives.
package final class MemoryBudget: Sendable {
    package let limit: Int
    package let namespaceLimit: Int
    private let holders = Protected<Holders>(Holders())
    private let trimming = Atomic<Bool>(false)

    /// What one device holds, as it last said.
    package struct Held: Equatable, Sendable {
        package var evictable = 0
        package var answers = 0
        package var state = 0
        package var total: Int { evictable + answers + state }
    }

    private struct Holder {
        var host: WeakHost
        var namespace: String
        var held: Held
    }

    private struct Totals {
        var all = 0
        package var state = 0
    }

    private struct Holders {
        var total = Totals()
        var byNamespace: [String: Totals] = [:]
        var byHost: [ObjectIdentifier: Holder] = [:]

        mutating func set(_ key: ObjectIdentifier, _ holder: Holder?) {
            if let old = byHost[key] { add(old.namespace, all: -old.held.total, state: -old.held.state) }
            byHost[key] = holder
            if let holder { add(holder.namespace, all: holder.held.total, state: holder.held.state) }
        }

        /// Sets what `host` holds in `namespace`; returns what the namespace holds now. A device telling again
        /// what it holds, in the namespace it was in (every change), has its totals moved by the difference:
        /// its id and the namespace's name hashed once each.
        mutating func set(_ host: DeviceHost, namespace: String, _ held: Held) -> Int {
            let key = ObjectIdentifier(host)
            guard let index = byHost.index(forKey: key), byHost.values[index].namespace == namespace else {
                let weak = byHost[key]?.host ?? WeakHost(host)
                set(key, Holder(host: weak, namespace: namespace, held: held))
                return byNamespace[namespace]?.all ?? 0
            }
            let old = byHost.values[index].held
            byHost.values[index].held = held
            return add(namespace, all: held.total - old.total, state: held.state - old.state)
        }

        /// The total over its limit, if any: the daemon's (namespace nil) first, else a namespace's; and by how much.
        func overLimit(limit: Int, namespaceLimit: Int) -> (namespace: String?, excess: Int)? {
            if total.all > limit { return (nil, total.all - limit) }
            for (name, totals) in byNamespace where totals.all > namespaceLimit {
                return (name, totals.all - namespaceLimit)
            }
            return nil
        }

        /// Adds `all` and `state` bytes to the daemon's totals and `namespace`'s; returns what it holds now.
        @discardableResult
        private mutating func add(_ namespace: String, all: Int, state: Int) -> Int {
            total.all += all
            total.state += state
            let space = Self.added(all, state, to: &byNamespace[namespace, default: Totals()])
            if space.all == 0 && space.state == 0 { byNamespace[namespace] = nil }
            return space.all
        }

        private static func added(_ all: Int, _ state: Int, to totals: inout Totals) -> Totals {
            totals.all += all
            totals.state += state
            return totals
        }
    }

    private final class WeakHost: @unchecked Sendable {
        weak var host: DeviceHost?
        init(_ host: DeviceHost) { self.host = host }
    }

    package init(limit: Int, namespaceLimit: Int) {
        self.limit = limit
        self.namespaceLimit = namespaceLimit
    }

    /// Bytes held over every device now.
    package var total: Int { holders.withLock { $0.total.all } }

    /// Bytes the devices of `namespace` hold now.
    package func total(of namespace: String) -> Int { holders.withLock { $0.byNamespace[namespace]?.all ?? 0 } }

    /// What a refusal says: which budget, its limit, what it holds now that nothing evicts.
    package struct Refusal: Sendable {
        /// nil: the daemon's; else the namespace's.
        package var namespace: String?
        package var limit: Int
        package var used: Int
        package var asked: Int
    }

    /// nil when `bytes` more of what nothing evicts fit beside what the daemon and `namespace` hold; else why not.
    package func refusal(adding bytes: Int, in namespace: String) -> Refusal? {
        holders.withLock { holders in
            if holders.total.state + bytes > limit {
                return Refusal(namespace: nil, limit: limit, used: holders.total.state, asked: bytes)
            }
            let space = holders.byNamespace[namespace]?.state ?? 0
            if space + bytes > namespaceLimit {
                return Refusal(namespace: namespace, limit: namespaceLimit, used: space, asked: bytes)
            }
            return nil
        }
    }

    /// `host` (of `namespace`) holds `held` now; trims in the background when a limit is passed.
    func holds(_ host: DeviceHost, namespace: String, _ held: Held) {
        let over = holders.withLock { holders -> Bool in
            let space = holders.set(host, namespace: namespace, held)
            return holders.total.all > limit || space > namespaceLimit
        }
        if over { trimSoon() }
    }

    /// The host is gone (deleted, reset away): what it held is free.
    func forget(_ host: ObjectIdentifier) {
        holders.withLock { $0.set(host, nil) }
    }

    /// One trim at a time, off the caller's thread (a store completion).
    private func trimSoon() {
        guard trimming.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            let progressed = trim()
            trimming.store(false, ordering: .releasing)
            // A change that came in while the flag was up may have left a total over again; the next report
            // starts another trim anyway, so one that took nothing does not spin.
            if progressed, holders.withLock({ $0.overLimit(limit: limit, namespaceLimit: namespaceLimit) != nil }) {
                trimSoon()
            }
        }
    }

    /// The most one device gives up at a time (`trim`).
    static let trimStep = 256 * 1024

    /// Takes from the device holding the most evictable bytes of whichever total is over its limit, until every
    /// total fits. A device that had less to give than it last said (it was giving way while changing) says
    /// again what it holds, and the trim ends: the devices' next reports start another, so a smaller device
    /// never gives way for a larger one that is still changing. Returns whether anything was given up.
    /// A device gives up at most `trimStep` at a time, under its lock: a total far over (tens of megabytes, when
    /// recordings or many devices grow at once) is taken in short steps from whichever device holds the most,
    /// not from one device in one hold of its lock that its events wait behind (23 ms for 36 MB, measured).
    @discardableResult
    package func trim() -> Bool {
        var progressed = false
        while true {
            let largest = holders.withLock { holders -> (WeakHost, ObjectIdentifier, excess: Int)? in
                guard let (namespace, excess) = holders.overLimit(limit: limit, namespaceLimit: namespaceLimit) else {
                    return nil
                }
                let candidates = holders.byHost.filter { _, holder in
                    (namespace == nil || holder.namespace == namespace)
                        && holder.held.evictable + holder.held.answers > 0
                }
                guard
                    let (key, holder) = candidates.max(by: {
                        $0.value.held.evictable + $0.value.held.answers < $1.value.held.evictable
                            + $1.value.held.answers
                    })
                else { return nil }
                return (holder.host, key, excess)
            }
            guard let (weak, key, excess) = largest else { return progressed }
            guard let host = weak.host else {
                forget(key)
                continue
            }
            guard host.giveUp(bytes: min(excess, Self.trimStep)) else {
                host.reportHeld()
                return progressed
            }
            progressed = true
        }
    }
}
