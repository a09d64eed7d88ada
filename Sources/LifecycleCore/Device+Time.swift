/// Deadlines and the suspension rule (LIFECYCLE §4, §6, §10).
extension Device {
    /// The earliest simulated time at which something happens by itself; nil when nothing is pending.
    /// A realtime driver calls `advance(to:)` then.
    ///
    /// The rules here read each app field by field: binding an app whole would copy it.
    public var nextDeadline: Double? {
        var earliest = Double.infinity
        for id in apps.clocked {
            if let watchdog = apps[existing: id].windowWatchdog { earliest = min(earliest, watchdog) }
            if let end = apps[existing: id].windowEnd { earliest = min(earliest, end) }
            for task in apps[existing: id].backgroundTasks {
                if let endsAt = task.endsAt { earliest = min(earliest, endsAt) }
            }
            if let expiry = budgetExpiry(of: id) { earliest = min(earliest, expiry) }
            if let suspension = suspensionTime(of: id) { earliest = min(earliest, suspension) }
            if let disconnect = sceneDisconnectTime(of: id) { earliest = min(earliest, disconnect) }
            if let task = scheduledTaskDeadline(of: id) { earliest = min(earliest, task) }
        }
        return earliest.isFinite ? earliest : nil
    }

    private func budgetExpiry(of id: String) -> Double? {
        guard apps[existing: id].state == .background, !apps[existing: id].backgroundTasks.isEmpty,
            !apps[existing: id].budgetExhausted, let since = apps[existing: id].backgroundSince
        else { return nil }
        return since + capabilities(of: id).backgroundBudget
    }

    private func suspensionTime(of id: String) -> Double? {
        guard apps[existing: id].state == .background, apps[existing: id].isIdle,
            let idle = apps[existing: id].idleSince
        else { return nil }
        return idle + configuration.suspendDelay
    }

    /// Visits every deadline up to `target` in order, then sets the clock to `target` (never back, never past
    /// `maximumTime`; a target that is not a number leaves the clock where it is).
    mutating func advanceInPlace(to requested: Double) {
        let target = requested.isNaN ? time : min(requested, Self.maximumTime)
        settle()
        while let deadline = nextDeadline, deadline <= target {
            if deadline > time { time = deadline }
            fireDue()
            settle()
        }
        if target > time { time = target }
    }

    /// Fires everything due by now, app by app in the order they were added.
    private mutating func fireDue() {
        for id in apps.clockedInOrder {
            if let watchdog = apps[existing: id].windowWatchdog, watchdog <= time {
                end(id, apps[existing: id].windowKill ?? .watchdog, notified: false)
                continue
            }
            if let end = apps[existing: id].windowEnd, end <= time {
                apps[existing: id].windowEnd = nil
            }
            for task in apps[existing: id].backgroundTasks {
                if let endsAt = task.endsAt, endsAt <= time {
                    apps[existing: id].backgroundTasks.removeAll { $0.id == task.id }
                    record(id, .backgroundTask(event: .ended, task: task.id, name: task.name))
                }
            }
            if let expiry = budgetExpiry(of: id), expiry <= time {
                expireBackgroundTasks(id)
            }
            if let disconnect = sceneDisconnectTime(of: id), disconnect <= time {
                disconnectIdleScenes(id)
            }
            if let task = scheduledTaskDeadline(of: id), task <= time {
                fireScheduledTasks(id)
            }
            suspendIfDue(id)
        }
    }

    private mutating func suspendIfDue(_ id: String) {
        settleOne(id)
        if let suspension = suspensionTime(of: id), suspension <= time {
            setState(id, .suspended)
            apps[existing: id].idleSince = nil
            releaseAtSuspension(id)
        }
    }

    /// Applies the suspension rule now to every app it would suspend at this moment.
    mutating func suspendDueApps() {
        for id in apps.clockedInOrder { suspendIfDue(id) }
    }

    /// Keeps `idleSince` true to the suspension rule: set when a background app becomes idle, cleared otherwise.
    mutating func settle() {
        for id in apps.clockedInOrder { settleOne(id) }
    }

    private mutating func settleOne(_ id: String) {
        if apps[existing: id].state == .background, apps[existing: id].isIdle {
            if apps[existing: id].idleSince == nil { apps[existing: id].idleSince = time }
        } else if apps[existing: id].idleSince != nil {
            apps[existing: id].idleSince = nil
        }
    }
}
