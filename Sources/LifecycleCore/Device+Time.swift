/// Deadlines and the suspension rule (LIFECYCLE §4, §6, §10).
extension Device {
    /// The earliest simulated time at which something happens by itself; nil when nothing is pending.
    /// A realtime driver calls `advance(to:)` then.
    public var nextDeadline: Double? {
        var earliest = Double.infinity
        for id in apps.clocked {
            let app = apps[existing: id]
            if let watchdog = app.windowWatchdog { earliest = min(earliest, watchdog) }
            if let end = app.windowEnd { earliest = min(earliest, end) }
            for task in app.backgroundTasks {
                if let endsAt = task.endsAt { earliest = min(earliest, endsAt) }
            }
            if let expiry = budgetExpiry(of: app) { earliest = min(earliest, expiry) }
            if let suspension = suspensionTime(of: app) { earliest = min(earliest, suspension) }
            if let disconnect = sceneDisconnectTime(of: app) { earliest = min(earliest, disconnect) }
        }
        return earliest.isFinite ? earliest : nil
    }

    private func budgetExpiry(of app: AppInstance) -> Double? {
        guard app.state == .background, !app.backgroundTasks.isEmpty, !app.budgetExhausted,
            let since = app.backgroundSince
        else { return nil }
        return since + capabilities(of: app).backgroundBudget
    }

    private func suspensionTime(of app: AppInstance) -> Double? {
        guard app.state == .background, app.isIdle, let idle = app.idleSince else { return nil }
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
    /// Each app is read once and read again only after a step changed it (nearly always nothing is due).
    private mutating func fireDue() {
        for id in apps.clockedInOrder {
            var app = apps[existing: id]
            if let watchdog = app.windowWatchdog, watchdog <= time {
                end(id, .watchdog, notified: false, code: Watchdog.code)
                continue
            }
            if let end = app.windowEnd, end <= time {
                apps[existing: id].windowEnd = nil
                app = apps[existing: id]
            }
            var tasksEnded = false
            for task in app.backgroundTasks {
                if let endsAt = task.endsAt, endsAt <= time {
                    apps[existing: id].backgroundTasks.removeAll { $0.id == task.id }
                    record(id, .backgroundTask(event: .ended, task: task.id, name: task.name))
                    tasksEnded = true
                }
            }
            if tasksEnded { app = apps[existing: id] }
            if let expiry = budgetExpiry(of: app), expiry <= time {
                expireBackgroundTasks(id)
                app = apps[existing: id]
            }
            if let disconnect = sceneDisconnectTime(of: app), disconnect <= time {
                disconnectIdleScenes(id)
            }
            suspendIfDue(id)
        }
    }

    private mutating func suspendIfDue(_ id: String) {
        settleOne(id)
        if let suspension = suspensionTime(of: apps[existing: id]), suspension <= time {
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
        let app = apps[existing: id]
        if app.state == .background, app.isIdle {
            if app.idleSince == nil { apps[existing: id].idleSince = time }
        } else if app.idleSince != nil {
            apps[existing: id].idleSince = nil
        }
    }
}
