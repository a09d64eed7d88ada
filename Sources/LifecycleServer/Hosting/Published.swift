import LifecycleCore

/// What readers of one device see: its newest durable state and timelines. Guarded by the host's lock.
struct Published: Sendable {
    var device: Device
    var deviceTimeline: EntryRing
    var appTimelines: [String: EntryRing] = [:]
    var waiters: [Waiter] = []
    /// Set once the device is deleted or reset away.
    var gone = false
    /// Journal appends of this device that are durable, and actions waiting for a count to be reached.
    var durableAppends: UInt64 = 0
    var barriers: [(target: UInt64, action: @Sendable () -> Void)] = []
    let historyLimit: Int

    init(device: Device, historyLimit: Int) {
        self.device = device
        self.historyLimit = historyLimit
        deviceTimeline = EntryRing(limit: historyLimit)
    }

    /// Installs a newer state and its entries; returns how many entries were evicted.
    mutating func install(_ device: Device, entries: [StoredEntry], apps: [String?]) -> Int {
        self.device = device
        var evicted = 0
        for (entry, app) in zip(entries, apps) {
            evicted += deviceTimeline.append(entry)
            if let app {
                evicted += appTimelines[app, default: EntryRing(limit: historyLimit)].append(entry)
            }
        }
        return evicted
    }

    mutating func removeTimeline(of app: String) {
        appTimelines[app] = nil
    }

    mutating func takeWaiters() -> [Waiter] {
        defer { waiters = [] }
        return waiters
    }
}
