package import LifecycleCore

/// What readers of one device see: its newest durable state and timelines. Guarded by the host's lock.
package struct PublishedDevice: Sendable {
    package var device: Device
    package var deviceTimeline: EntryRing
    package var appTimelines: [String: EntryRing] = [:]
    /// Parked long polls by the app timeline they watch; `devicePolls` watch the device's.
    var appPolls: [String: [Poll]] = [:]
    var devicePolls: [Poll] = []
    /// What follows this device's timelines (`app` nil: the device's own), such as open event streams.
    /// They stay until they leave.
    package var watchers: [ObjectIdentifier: (app: String?, watcher: any TimelineWatcher)] = [:]
    /// Entries held in the apps' timelines: the bulk of what a snapshot saves.
    var appEntriesRetained = 0
    /// Set once the device is deleted or reset away.
    package var gone = false
    /// Set when the device went with its namespace: parked polls answer 410 rather than 404.
    package var deletedNamespace: String?
    /// Journal appends of this device that are durable, and actions waiting for a count to be reached.
    var durableAppends: UInt64 = 0
    var barriers: [(target: UInt64, action: @Sendable (Result<Void, HostError>) -> Void)] = []
    /// Set once an append failed: no later append of this process becomes durable.
    package var storeFailed = false
    /// App snapshots as last served, with their ETags: reads of an unchanged app skip encoding and hashing.
    /// An entry holds while the app is unchanged and the device's clock and protected data are where they were.
    package var snapshots: [String: CachedSnapshot] = [:]
    /// The entries of the latest change that was answered, as served (readers copy them rather than render).
    package var served = ServedEntries.none
    package let historyLimit: Int
    /// The most bytes of entries the device's timelines hold together (each entry counted once).
    package let historyBytes: Int
    /// Bytes of the entries retained in any of the device's timelines, each counted once.
    package private(set) var retainedBytes = 0
    /// Bytes the timelines' slots take (`EntryRing.slotBytes`, summed), which the budget counts beside them.
    package private(set) var slotBytes = 0
    /// The wall clock a realtime clock follows, and where it read 0 on it.
    package let anchor: WallAnchor
    /// The inputs that replay the device from its creation, as long as it keeps them.
    package internal(set) var recording: InputRecording

    package init(
        device: Device, historyLimit: Int, historyBytes: Int, anchor: WallAnchor, recording: InputRecording
    ) {
        self.device = device
        self.recording = recording
        self.historyLimit = historyLimit
        self.historyBytes = historyBytes
        self.anchor = anchor
        deviceTimeline = EntryRing(limit: historyLimit)
        slotBytes = deviceTimeline.slotBytes
    }

    /// Installs timelines restored from a snapshot, then evicts what is over the byte cap.
    package mutating func restore(deviceTimeline: EntryRing, appTimelines: [String: EntryRing]) {
        self.deviceTimeline = deviceTimeline
        self.appTimelines = appTimelines
        served = .none
        retainedBytes = deviceTimeline.bytes
        slotBytes = appTimelines.values.reduce(deviceTimeline.slotBytes) { $0 + $1.slotBytes }
        for ring in appTimelines.values {
            for entry in ring.retained where entry.seq <= deviceTimeline.evictedThrough {
                retainedBytes += entry.encodedCount
            }
        }
        _ = evictOverBytes()
    }

    /// Installs a newer state and its entries; returns how many entries were evicted.
    /// `device` holds the changed apps only (`Device.changes(of:)`); the others are as they were.
    mutating func install(_ device: Device, changedApps: Set<String>, entries: [RetainedEntry]) -> Int {
        self.device.catchUp(with: device, apps: changedApps)
        for app in changedApps { snapshots[app] = nil }
        var evicted = 0
        // The entries of one change are mostly one app's: its timeline is looked up once for a run of them
        // (an index stays valid until a timeline is added).
        var ring: (app: String, index: Dictionary<String, EntryRing>.Index)?
        for made in entries {
            // Most entries are about the app of the entry before: no string is made for them.
            var app: Dictionary<String, EntryRing>.Index?
            if let current = ring, made.isAbout(app: current.app) {
                app = current.index
            } else if let id = made.app {
                if appTimelines.index(forKey: id) == nil {
                    let made = EntryRing(limit: historyLimit, reserving: entries.count)
                    slotBytes += made.slotBytes
                    appTimelines[id] = made
                }
                ring = (id, appTimelines.index(forKey: id)!)
                app = ring!.index
            }
            // An equal entry's body, if the app's timeline (or the device's, for a device's entry) holds one.
            let entry = app.map { appTimelines.values[$0].sharing(made) } ?? deviceTimeline.sharing(made)
            retainedBytes += entry.encodedCount
            if let dropped = deviceTimeline.append(entry, countingSlotsIn: &slotBytes) {
                evicted += 1
                releaseFromDevice(dropped)
            }
            guard let app else { continue }
            appEntriesRetained += 1
            if let dropped = appTimelines.values[app].append(entry, countingSlotsIn: &slotBytes) {
                evicted += 1
                releaseFromApp(dropped)
            }
        }
        return evicted + evictOverBytes()
    }

    mutating func removeTimeline(of app: String) {
        guard let ring = appTimelines.removeValue(forKey: app) else { return }
        appEntriesRetained -= ring.count
        slotBytes -= ring.slotBytes
        for entry in ring.retained { releaseFromApp(entry, counted: false) }
    }

    /// Evicts the oldest entries of the device, from whichever timeline holds them, until the device holds
    /// at most `historyBytes`; returns how many ring entries were evicted.
    private mutating func evictOverBytes() -> Int {
        let cap = historyBytes
        return evict { retained, _ in retained > cap }
    }

    /// Evicts the device's oldest entries until its timelines hold `bytes` fewer, their slots counted (or hold
    /// none): for the daemon's budget (`MemoryBudget`). Returns how many ring entries were evicted.
    mutating func evict(bytes: Int) -> Int {
        let target = retainedBytes + slotBytes - bytes
        return evict { retained, slots in retained + slots > target }
    }

    /// Evicts the device's oldest entries, whichever timeline holds them, while `over` holds of the entries'
    /// bytes and the slots'.
    private mutating func evict(while over: (_ retained: Int, _ slots: Int) -> Bool) -> Int {
        var evicted = 0
        while over(retainedBytes, slotBytes) {
            var oldestApp: String?
            var oldestSeq = deviceTimeline.oldestSeq ?? .max
            for (app, ring) in appTimelines {
                if let seq = ring.oldestSeq, seq < oldestSeq {
                    oldestSeq = seq
                    oldestApp = app
                }
            }
            if let app = oldestApp, let index = appTimelines.index(forKey: app),
                let dropped = appTimelines.values[index].evictOldest(countingSlotsIn: &slotBytes)
            {
                releaseFromApp(dropped)
            } else if let dropped = deviceTimeline.evictOldest(countingSlotsIn: &slotBytes) {
                releaseFromDevice(dropped)
            } else {
                break
            }
            evicted += 1
        }
        return evicted
    }

    /// An entry left the device's timeline: its bytes are free unless its app's timeline still holds it.
    private mutating func releaseFromDevice(_ entry: RetainedEntry) {
        if let app = entry.app, let ring = appTimelines[app], ring.evictedThrough < entry.seq,
            ring.oldestSeq.map({ $0 <= entry.seq }) ?? false
        {
            return
        }
        retainedBytes -= entry.encodedCount
    }

    /// An entry left its app's timeline: its bytes are free unless the device's timeline still holds it.
    private mutating func releaseFromApp(_ entry: RetainedEntry, counted: Bool = true) {
        if counted { appEntriesRetained -= 1 }
        if deviceTimeline.evictedThrough < entry.seq { return }
        retainedBytes -= entry.encodedCount
    }

    /// The device as a reader should see it now. A realtime clock moves between events: its time,
    /// budgets and any deadline its timer is about to fire are projected on a copy (the core is pure).
    /// A deadline that would ask a live delegate is not projected (no delegate can be asked off the device's
    /// queue, LIFECYCLE §13): the reader sees the device as its queue last left it until the timer fires.
    package var current: Device {
        guard device.configuration.clockMode == .realtime else { return device }
        var copy = device
        let projected = copy.advance(to: anchor.time(of: device))
        return projected.answers.isEmpty ? copy : device
    }

    /// Every parked poll, to answer them all (a delete, a reset, a drain).
    package mutating func takeAllPolls() -> [Poll] {
        defer {
            appPolls = [:]
            devicePolls = []
        }
        return devicePolls + appPolls.values.joined()
    }

    /// The polls that `entries` and the removal of `removedApp` (and the device's timeline) concern; a poll
    /// on another app sleeps on.
    mutating func takePolls(for entries: [RetainedEntry], removedApp: String?) -> [Poll] {
        var polls: [Poll] = []
        if !entries.isEmpty {
            polls = devicePolls
            devicePolls = []
        }
        guard !appPolls.isEmpty else { return polls }
        for case let app? in entries.lazy.map(\.app) {
            if let waiting = appPolls.removeValue(forKey: app) { polls += waiting }
        }
        if let removedApp, let waiting = appPolls.removeValue(forKey: removedApp) { polls += waiting }
        return polls
    }

    /// The watchers that `entries` and the removal of `removedApp` concern (the device's own when there are
    /// entries at all).
    package func watchers(for entries: [RetainedEntry], removedApp: String?) -> [any TimelineWatcher] {
        guard !watchers.isEmpty else { return [] }
        var touched = Set(entries.compactMap(\.app))
        if let removedApp { touched.insert(removedApp) }
        return watchers.values.compactMap { watching in
            if let app = watching.app { return touched.contains(app) ? watching.watcher : nil }
            return entries.isEmpty ? nil : watching.watcher
        }
    }

    /// Whether any reader follows the device's timelines now: a parked poll or a watcher (an open stream).
    var isFollowed: Bool { !watchers.isEmpty || !devicePolls.isEmpty || !appPolls.isEmpty }

    package mutating func park(_ poll: Poll, app: String?) {
        if let app {
            appPolls[app, default: []].append(poll)
        } else {
            devicePolls.append(poll)
        }
    }
}

/// One app's snapshot as encoded for a read, and what it depended on besides the app itself.
package struct CachedSnapshot: Sendable {
    package let json: [UInt8]
    package let etag: String
    /// The header fields of the answer (`fields`) and of its `304` (`notModifiedFields`), made by the reader that
    /// keeps the snapshot, once: every read then answers with these arrays instead of making its own.
    package let fields: [(name: String, value: String)]
    package let notModifiedFields: [(name: String, value: String)]
    package let time: Double
    package let protectedDataAvailable: Bool

    package init(
        json: [UInt8], etag: String, fields: [(name: String, value: String)],
        notModifiedFields: [(name: String, value: String)], time: Double, protectedDataAvailable: Bool
    ) {
        self.json = json
        self.etag = etag
        self.fields = fields
        self.notModifiedFields = notModifiedFields
        self.time = time
        self.protectedDataAvailable = protectedDataAvailable
    }
}
