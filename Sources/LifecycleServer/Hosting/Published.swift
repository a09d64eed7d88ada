import Foundation
import LifecycleCore

/// What readers of one device see: its newest durable state and timelines. Guarded by the host's lock.
struct Published: Sendable {
    var device: Device
    var deviceTimeline: EntryRing
    var appTimelines: [String: EntryRing] = [:]
    /// Parked long polls by the app timeline they watch; `devicePolls` watch the device's.
    var appPolls: [String: [Poll]] = [:]
    var devicePolls: [Poll] = []
    /// Entries held in the apps' timelines: the bulk of what a snapshot saves.
    var appEntriesRetained = 0
    /// Set once the device is deleted or reset away.
    var gone = false
    /// Journal appends of this device that are durable, and actions waiting for a count to be reached.
    var durableAppends: UInt64 = 0
    var barriers: [(target: UInt64, action: @Sendable (Result<Void, HostError>) -> Void)] = []
    /// Set once an append failed: no later append of this process becomes durable.
    var storeFailed = false
    /// App snapshots as last served, with their ETags: reads of an unchanged app skip encoding and hashing.
    /// An entry holds while the app is unchanged and the device's clock and protected data are where they were.
    var snapshots: [String: CachedSnapshot] = [:]
    let historyLimit: Int
    /// Wall-clock seconds at which a realtime clock read 0.
    let anchorWall: Double

    init(device: Device, historyLimit: Int, anchorWall: Double) {
        self.device = device
        self.historyLimit = historyLimit
        self.anchorWall = anchorWall
        deviceTimeline = EntryRing(limit: historyLimit)
    }

    /// Installs a newer state and its entries; returns how many entries were evicted.
    /// `device` holds the changed apps only (`Device.changes(of:)`); the others are as they were.
    mutating func install(_ device: Device, changedApps: Set<String>, entries: [StoredEntry], apps: [String?]) -> Int {
        self.device.catchUp(with: device, apps: changedApps)
        for app in changedApps { snapshots[app] = nil }
        var evicted = 0
        for (entry, app) in zip(entries, apps) {
            evicted += deviceTimeline.append(entry)
            if let app {
                let dropped = appTimelines[app, default: EntryRing(limit: historyLimit)].append(entry)
                appEntriesRetained += 1 - dropped
                evicted += dropped
            }
        }
        return evicted
    }

    mutating func removeTimeline(of app: String) {
        appEntriesRetained -= appTimelines.removeValue(forKey: app)?.count ?? 0
    }

    /// The device as a reader should see it now. A realtime clock moves between events: its time,
    /// budgets and any deadline its timer is about to fire are projected on a copy (the core is pure).
    var current: Device {
        guard device.configuration.clockMode == .realtime else { return device }
        var copy = device
        _ = copy.advance(to: (Date().timeIntervalSince1970 - anchorWall) * device.configuration.clockSpeed)
        return copy
    }

    /// Every parked poll, to answer them all (a delete, a reset, a drain).
    mutating func takeAllPolls() -> [Poll] {
        defer {
            appPolls = [:]
            devicePolls = []
        }
        return devicePolls + appPolls.values.joined()
    }

    /// The polls that entries for `apps` (and the device's timeline) concern; a poll on another app sleeps on.
    mutating func takePolls(for apps: [String?], entries: Bool) -> [Poll] {
        var polls: [Poll] = []
        if entries {
            polls = devicePolls
            devicePolls = []
        }
        for case let app? in apps {
            if let waiting = appPolls.removeValue(forKey: app) { polls += waiting }
        }
        return polls
    }

    mutating func park(_ poll: Poll, app: String?) {
        if let app {
            appPolls[app, default: []].append(poll)
        } else {
            devicePolls.append(poll)
        }
    }
}

/// One app's snapshot as encoded for a read, and what it depended on besides the app itself.
struct CachedSnapshot: Sendable {
    let json: [UInt8]
    let etag: String
    let time: Double
    let protectedDataAvailable: Bool
}
