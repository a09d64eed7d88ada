/// `moveTo {state}` (API.md "Moving an app to a state"): the shortest sequence of ordinary events that
/// brings an app to a state, applied one by one exactly as a batch of them would be.
///
/// Each step is chosen from the device as the previous one left it:
/// - `active`: `activate` (it launches if needed). An alert or call in progress is declined first
///   (`interruptionEnded {accepted: false}`), an open Notification Center closed; a locked device blocks.
/// - `inactive`: the path to `active`, then `interruptionBegan {kind: "alert"}`.
/// - `suspended`: from the foreground `homeButton`, from `notRunning` `launch {background: true}`; then what
///   keeps the app running ends (`endBackgroundTask` for each task, `stopBackgroundActivity` for each mode)
///   and, when the suspension rule needs time (`suspendDelay`, or a fetch or push window still open),
///   `advanceTime` by exactly that long.
/// - `background`: `beginBackgroundTask {name: "moveTo"}` while the app runs (unless a task or an activity
///   already keeps it running), then `homeButton`. From `notRunning` with a `suspendDelay`,
///   `launch {background: true}` then the task; otherwise (and from `suspended`) the app runs only in front:
///   `activate`, the task, `homeButton`.
/// - `notRunning`: `terminate`.
extension Device {
    /// The name of the background task `moveTo {state: background}` begins.
    static let moveToTaskName = "moveTo"

    /// Applies the steps to `target`; answers them. A step that cannot happen throws, naming that step.
    mutating func moveTo(_ target: AppState, app id: String) throws(Rejection) -> [Event] {
        let start = apps[existing: id]
        if start.state == target { return [] }
        if target == .background || target == .suspended, !capabilities(of: start).multitasking {
            let step: Event =
                start.state == .notRunning ? .launch(background: true, url: nil, sourceApplication: nil) : .homeButton
            throw moveBlocked(
                target, step,
                "app \(id) never runs in the background: that needs iOS 4.0, a device with multitasking and no "
                    + "UIApplicationExitsOnSuspend")
        }
        // Every step changes something, and the app keeps at most this many things running.
        let limit = 8 + start.backgroundTasks.count + start.backgroundActivities.count
        var applied: [Event] = []
        while let step = try nextStep(id, to: target) {
            guard applied.count < limit else {
                throw moveBlocked(target, step, "no path of at most \(limit) events reaches it")
            }
            let before = MoveMark(self, id)
            let fromLog = log.count
            do {
                try applyOne(step, app: id)
            } catch {
                throw moveBlocked(target, step, error)
            }
            advanceInPlace(to: time)
            applied.append(step)
            if target != .notRunning, let reason = endReason(of: id, since: fromLog) {
                throw moveBlocked(target, step, "it ends app \(id) (\(reason.rawValue))")
            }
            if MoveMark(self, id) == before { throw moveBlocked(target, step, "it changes nothing here") }
        }
        return applied
    }

    /// The next ordinary event on the way to `target`; nil once there.
    private func nextStep(_ id: String, to target: AppState) throws(Rejection) -> Event? {
        let app = apps[existing: id]
        switch target {
        case .notRunning:
            return app.state == .notRunning ? nil : .terminate
        case .active:
            return app.state == .active ? nil : try stepTowardActive(id, target: target)
        case .inactive:
            switch app.state {
            case .inactive: return nil
            case .active: return .interruptionBegan(kind: .alert)
            case .notRunning, .background, .suspended: return try stepTowardActive(id, target: target)
            }
        case .background:
            switch app.state {
            case .background:
                return app.isIdle ? .beginBackgroundTask(name: Self.moveToTaskName, duration: nil) : nil
            case .active, .inactive:
                return app.isIdle
                    ? .beginBackgroundTask(name: Self.moveToTaskName, duration: nil)
                    : try stepLeavingForeground(id, target: target)
            case .notRunning where configuration.suspendDelay > 0:
                return .launch(background: true, url: nil, sourceApplication: nil)
            case .notRunning, .suspended:
                // Launched into the background or left suspended, the app would suspend before it could begin a
                // task: it begins one in front.
                return try stepTowardActive(id, target: target)
            }
        case .suspended:
            switch app.state {
            case .suspended: return nil
            case .notRunning: return .launch(background: true, url: nil, sourceApplication: nil)
            case .active, .inactive: return try stepLeavingForeground(id, target: target)
            case .background: return try stepTowardSuspension(id, target: target)
            }
        }
    }

    /// What brings the app in front and active: what covers the screen goes first; a lock blocks.
    private func stepTowardActive(_ id: String, target: AppState) throws(Rejection) -> Event {
        let activate = Event.activate(session: nil)
        if locked {
            throw moveBlocked(target, activate, "the device is locked: unlock it first", allowed: ["unlock"])
        }
        if interruption != nil { return .interruptionEnded(accepted: false) }
        // Another app starts from Notification Center (seed 000 §3.2); the app in front under it closes it.
        if notificationCenterOpen, apps[existing: id].state.isForeground { return .notificationCenterClosed }
        if appSwitcherOpen, apps[existing: id].state.isForeground { return .appSwitcherClosed }
        return activate
    }

    /// What sends a foreground app to the background: Home, once nothing stops it.
    private func stepLeavingForeground(_ id: String, target: AppState) throws(Rejection) -> Event {
        if locked {
            throw moveBlocked(
                target, .homeButton, "the device is locked: Home only lights the lock screen; unlock it first",
                allowed: ["unlock"])
        }
        // Home would only close Notification Center.
        if notificationCenterOpen { return .notificationCenterClosed }
        if appSwitcherOpen { return .appSwitcherClosed }
        return .homeButton
    }

    /// What lets the suspension rule suspend a background app: its tasks and activities end, then time passes.
    private func stepTowardSuspension(_ id: String, target: AppState) throws(Rejection) -> Event {
        let app = apps[existing: id]
        if let task = app.backgroundTasks.first { return .endBackgroundTask(task: task.id) }
        if let mode = app.backgroundActivities.first { return .stopBackgroundActivity(mode: mode) }
        let due = (app.windowEnd ?? app.idleSince ?? time) + configuration.suspendDelay
        var seconds = max(0, due - time)
        // The clock must reach `due` exactly: time + seconds can round below it.
        while time + seconds < due { seconds = seconds.nextUp }
        if let watchdog = app.windowWatchdog {
            throw moveBlocked(
                target, .advanceTime(seconds: seconds),
                "the app's fetch or push window runs past its 30 s limit: the watchdog kills it at "
                    + "\(watchdog.plainText) s")
        }
        return .advanceTime(seconds: seconds)
    }

    /// The reason of the first termination of `id` among the entries from `index` on.
    private func endReason(of id: String, since index: Int) -> TerminationReason? {
        for entry in log[index...] where entry.app == id {
            if case .termination(let reason, _, _) = entry.body { return reason }
        }
        return nil
    }

    private func moveBlocked(
        _ target: AppState, _ step: Event, _ reason: String, allowed: [String] = []
    ) -> Rejection {
        var rejection = Rejection.transition(
            "moveTo \(target.rawValue) needs \(step.type), which cannot happen: \(reason)", allowed: allowed)
        rejection.blockedBy = step
        return rejection
    }

    /// A step's own refusal, as the refusal of the `moveTo`: always a 409, since the request itself was valid.
    private func moveBlocked(_ target: AppState, _ step: Event, _ refusal: Rejection) -> Rejection {
        var rejection = moveBlocked(
            target, step, refusal.detail, allowed: refusal.code == .invalidTransition ? refusal.allowed : [])
        rejection.sceneState = refusal.sceneState
        rejection.lifecycle = refusal.lifecycle
        return rejection
    }
}

/// What a `moveTo` step must change: one that changes none of it leads nowhere.
private struct MoveMark: Equatable {
    var state: AppState
    var foregroundApp: String?
    var covered: [Bool]
    var tasks: Int
    var activities: Int
    var time: Double

    init(_ device: Device, _ id: String) {
        let app = device.apps[existing: id]
        state = app.state
        foregroundApp = device.foregroundApp
        covered = [device.locked, device.interruption != nil, device.notificationCenterOpen, device.appSwitcherOpen]
        tasks = app.backgroundTasks.count
        activities = app.backgroundActivities.count
        time = device.time
    }
}
