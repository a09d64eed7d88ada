/// The primitives every rule is written with: each records what it does, in order.
extension Device {
    mutating func record(
        _ app: String?, _ body: TimelineEntry.Body, session: String? = nil, sceneState: SceneState? = nil
    ) {
        let seq = append(app, body, session: session, sceneState: sceneState)
        if let app { apps[existing: app].lastSeq = seq }
    }

    /// Appends an entry to the log without touching its app (the caller records its `seq` there): answers the `seq`.
    private mutating func append(
        _ app: String?, _ body: TimelineEntry.Body, session: String? = nil, sceneState: SceneState? = nil
    ) -> UInt64 {
        lastSeq += 1
        log.append(
            TimelineEntry(seq: lastSeq, time: time, app: app, body: body, session: session, sceneState: sceneState))
        return lastSeq
    }

    mutating func recordDevice(_ event: Event, _ detail: [String: JSONValue]) {
        record(nil, .device(event: event.type, detail: detail))
    }

    mutating func setState(_ id: String, _ state: AppState) {
        let from = apps[existing: id].state
        guard from != state else { return }
        let seq = append(id, .state(from: from, to: state))
        apps[existing: id].enter(state, at: time, seq: seq)
        // In front, the user launched it: the system may wake it again after a force-quit (LIFECYCLE §6).
        if state.isForeground, apps[existing: id].stoppedByForceQuit != nil {
            apps[existing: id].stoppedByForceQuit = nil
        }
    }

    mutating func post(_ id: String, _ name: String, _ userInfo: [String: JSONValue] = [:]) {
        record(id, .notification(name: name, userInfo: userInfo, queuedAt: nil, coalesced: nil))
    }

    /// Calls a delegate method: the callback entry (if the delegate implements it), its duration of
    /// simulated time, then its notification (implemented or not, LIFECYCLE §3).
    ///
    /// A callback that runs past `limit` is killed by the watchdog at the limit, with no notification:
    /// the result is nil then, and the app is not running. Otherwise it is the time the callback took.
    @discardableResult
    mutating func invoke(
        _ id: String, _ selector: String, args: [String: JSONValue] = [:], limit: Double? = nil
    ) -> Double? {
        // The configuration alone, shared: binding the app would copy it.
        let configuration = apps[existing: id].storedConfiguration
        // A live delegate's answer stands for the script (LIFECYCLE §13); scripted apps read the script alone.
        let live = configuration.value.delegate.isLive ? takeLive(id, selector, args: args, limit: limit) : nil
        var spent = 0.0
        if live?.implemented ?? configuration.value.delegate.implements(selector) {
            let duration = live?.appliedDuration ?? configuration.value.delegate.duration(of: selector)
            record(id, .callback(selector: selector, state: apps[existing: id].state, args: args, duration: duration))
            if let live {
                guard performActions(id, inside: selector, live.actions) else { return nil }
            } else if configuration.value.delegate.actions != nil, !performActions(id, inside: selector) {
                return nil
            }
            if let limit = Self.watchdog(limit, duration: duration, live) {
                time = min(time + limit, Self.maximumTime)
                end(id, .watchdog, notified: selector == Selector.willTerminate)
                return nil
            }
            time = min(time + duration, Self.maximumTime)
            spent = duration
        }
        if let name = Selector.notification(after: selector) { post(id, name) }
        return spent
    }

    /// The app stops running: every task, activity, window and queued notification goes with it.
    mutating func end(_ id: String, _ reason: TerminationReason, notified: Bool) {
        let foreground = apps[existing: id].state.isForeground
        // Every scene still connected loses its scene with the process (LIFECYCLE §11.10); sessions stay.
        for session in apps[existing: id].sessions where session.state.isConnected {
            setSceneState(id, session.id, .unattached, recompute: false)
        }
        setState(id, .notRunning)
        apps[existing: id].backgroundTasks = []
        apps[existing: id].backgroundActivities = []
        apps[existing: id].queuedNotifications = []
        apps[existing: id].pendingRedraws = 0
        apps[existing: id].backgroundSince = nil
        apps[existing: id].budgetExhausted = false
        apps[existing: id].idleSince = nil
        apps[existing: id].windowEnd = nil
        apps[existing: id].windowWatchdog = nil
        apps[existing: id].windowKill = nil
        apps[existing: id].prewarmStage = nil
        apps[existing: id].heldResources = nil
        apps[existing: id].hiddenViews = nil
        apps[existing: id].shownAlerts = nil
        apps[existing: id].scheduledTasks = nil  // its BGTaskScheduler tasks die with it (LIFECYCLE §15)
        recordTermination(id, reason, notified: notified, foreground: foreground)
        if foregroundApp == id { foregroundApp = nil }
        if appBeforeLock == id { appBeforeLock = nil }
    }

    /// A running app gets `applicationWillTerminate:` (5 s watchdog), then ends.
    mutating func terminateRunning(_ id: String, _ reason: TerminationReason) {
        guard invoke(id, Selector.willTerminate, limit: Watchdog.willTerminate) != nil else { return }
        end(id, reason, notified: true)
    }

    /// Notifications that waited while the app was suspended, delivered when it next runs code (LIFECYCLE §7).
    /// A notification that has a delegate method (protected data, significant time) comes with that method,
    /// as it would for a running app (§3, §5: unlock brings `applicationProtectedDataDidBecomeAvailable:`).
    mutating func deliverQueue(_ id: String) {
        let queue = apps[existing: id].queuedNotifications
        apps[existing: id].queuedNotifications = []
        for item in queue {
            if let selector = Self.delegateMethod(forQueued: item.name), implements(id, selector) {
                let app = apps[existing: id]
                let live = app.storedConfiguration.value.delegate.isLive ? takeLive(id, selector, args: [:]) : nil
                let duration = live?.appliedDuration ?? app.delegate.duration(of: selector)
                record(id, .callback(selector: selector, state: app.state, args: [:], duration: duration))
                if let live {
                    guard performActions(id, inside: selector, live.actions) else { return }
                    if let limit = Self.watchdog(nil, duration: duration, live) {
                        time = min(time + limit, Self.maximumTime)
                        return end(id, .watchdog, notified: false)
                    }
                }
                time = min(time + duration, Self.maximumTime)
            }
            record(
                id,
                .notification(
                    name: item.name, userInfo: item.userInfo, queuedAt: item.queuedAt, coalesced: item.coalesced))
        }
    }

    private static func delegateMethod(forQueued name: String) -> String? {
        for selector in [
            Selector.protectedDataWillBecomeUnavailable, Selector.protectedDataDidBecomeAvailable,
            Selector.significantTimeChange,
        ] where Selector.notification(after: selector) == name {
            return selector
        }
        return nil
    }

    /// A suspended app runs code again, in the background; its queue arrives first. One prewarmed up to `main`
    /// runs its launch callbacks then (§12.1). Returns false when the launch watchdog ended it.
    @discardableResult
    mutating func wakeInBackground(_ id: String) -> Bool {
        guard apps[existing: id].state == .suspended else { return true }
        if apps[existing: id].prewarmStage == .main {
            wakePrewarmedAtMain(id)
            return launch(id, background: true, url: nil)
        }
        setState(id, .background)
        apps[existing: id].backgroundSince = time
        apps[existing: id].budgetExhausted = false
        deliverQueue(id)
        return true
    }
}
