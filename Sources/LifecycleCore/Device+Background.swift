/// Background tasks, continuous background modes, fetch and pushes (LIFECYCLE §6).
extension Device {
    mutating func beginBackgroundTask(_ id: String, name: String?, duration: Double?) throws(Rejection) {
        let app = apps[existing: id]
        let caps = capabilities(of: app)
        guard caps.hasBackgroundTasks else {
            throw .transition(
                "background tasks exist from iOS 4.0; this device runs \(configuration.iosVersion)", state: app.state)
        }
        guard app.state.isRunning else {
            throw .transition(
                "only a running app can begin a background task", state: app.state,
                allowed: AppState.allCases.filter(\.isRunning).map(\.rawValue))
        }
        if let duration, !(duration >= 0 && duration <= Self.maximumTime) {
            throw .invalidField(
                "duration", "duration must be from 0 to \(Self.maximumTime.plainText) seconds, not \(duration)")
        }
        if app.state == .background, app.budgetExhausted {
            throw .transition(
                "the background time is used up: the system refuses new tasks until the app is in front",
                state: app.state)
        }
        let task = BackgroundTask(id: nextTaskID, name: name, began: time, endsAt: duration.map { time + $0 })
        nextTaskID += 1
        apps[existing: id].backgroundTasks.append(task)
        record(id, .backgroundTask(event: .began, task: task.id, name: name))
    }

    mutating func endBackgroundTask(_ id: String, task: Int) throws(Rejection) {
        let app = apps[existing: id]
        guard let index = app.backgroundTasks.firstIndex(where: { $0.id == task }) else {
            throw .transition(
                "the app has no unfinished background task \(task)", state: app.state,
                allowed: app.backgroundTasks.map { String($0.id) })
        }
        apps[existing: id].backgroundTasks.remove(at: index)
        record(id, .backgroundTask(event: .ended, task: task, name: app.backgroundTasks[index].name))
    }

    mutating func startBackgroundActivity(_ id: String, mode: String) throws(Rejection) {
        let app = apps[existing: id]
        try checkContinuous(mode)
        guard app.configuration.info.backgroundModes.contains(mode) else {
            throw .transition(
                "the app does not declare \(mode) in UIBackgroundModes", state: app.state,
                allowed: app.configuration.info.backgroundModes.filter { BackgroundMode.continuous.contains($0) })
        }
        guard app.state.isRunning else {
            throw .transition("only a running app can start \(mode)", state: app.state)
        }
        guard !app.backgroundActivities.contains(mode) else { return }
        apps[existing: id].backgroundActivities = (app.backgroundActivities + [mode]).sorted()
    }

    mutating func stopBackgroundActivity(_ id: String, mode: String) throws(Rejection) {
        try checkContinuous(mode)
        apps[existing: id].backgroundActivities.removeAll { $0 == mode }
    }

    private func checkContinuous(_ mode: String) throws(Rejection) {
        guard BackgroundMode.continuous.contains(mode) else {
            throw .invalidField(
                "mode", "\(mode) is not a continuous background mode",
                allowed: BackgroundMode.continuous.sorted())
        }
    }

    mutating func backgroundFetch(_ id: String) throws(Rejection) {
        let app = apps[existing: id]
        let caps = capabilities(of: app)
        guard caps.hasBackgroundFetch, caps.multitasking else {
            throw .transition("background fetch needs iOS 7.0 and multitasking", state: app.state)
        }
        guard app.configuration.info.backgroundModes.contains("fetch") else {
            throw .transition("the app does not declare fetch in UIBackgroundModes", state: app.state)
        }
        if app.configuration.info.bgTaskIdentifiers != nil, configuration.iosVersion >= ScheduledTaskKind.refresh.since
        {
            // Apple: the key "disables the application(_:performFetchWithCompletionHandler:) … methods" (§15).
            throw .transition(
                "the app lists BGTaskSchedulerPermittedIdentifiers, which disables "
                    + "application:performFetchWithCompletionHandler: from iOS 13.0: submit a refresh task instead",
                state: app.state)
        }
        guard !app.state.isForeground else {
            throw .transition(
                "the system fetches only for apps in the background", state: app.state,
                allowed: ["background", "suspended", "notRunning"])
        }
        guard admitWake(id, .backgroundFetch) else { return }
        try runInBackgroundWindow(id, selector: Selector.performFetch, args: [:], launchOptions: [:])
    }

    mutating func remoteNotification(_ id: String, payload: JSONValue?, contentAvailable: Bool) throws(Rejection) {
        let app = apps[existing: id]
        let caps = capabilities(of: app)
        var args: [String: JSONValue] = [:]
        if let payload { args["userInfo"] = payload }
        if app.state.isForeground {
            if let selector = caps.remoteNotificationSelectors.first(where: { implements(id, $0, args: args) }) {
                invoke(id, selector, args: args)
            }
            return
        }
        guard contentAvailable else { return }  // the user sees it; the app hears nothing until tapped
        guard caps.hasBackgroundFetch, caps.multitasking else {
            throw .transition("content-available pushes wake apps from iOS 7.0, with multitasking", state: app.state)
        }
        guard app.configuration.info.backgroundModes.contains("remote-notification") else {
            throw .transition("the app does not declare remote-notification in UIBackgroundModes", state: app.state)
        }
        guard admitWake(id, .silentPush) else { return }
        try runInBackgroundWindow(
            id, selector: Selector.didReceiveRemoteNotificationFetch, args: args,
            launchOptions: ["remoteNotification": payload ?? .object([:])])
    }

    /// Wakes a suspended app or launches a not-running one into the background, calls `selector`, and
    /// keeps a window open until the completion handler runs (the callback's duration), at most 30 s; past it,
    /// `kill` ends the app. False when the app did not come to run or ended on the way.
    @discardableResult
    mutating func runInBackgroundWindow(
        _ id: String, selector: String, args: [String: JSONValue], launchOptions: [String: JSONValue],
        kill: TerminationReason = .watchdog
    ) throws(Rejection) -> Bool {
        guard try runsInBackground(id, launchOptions: launchOptions) else { return false }
        let app = apps[existing: id]
        let live =
            app.storedConfiguration.value.delegate.isLive
            ? takeLive(id, selector, args: args, limit: Watchdog.backgroundWindow) : nil
        guard live?.implemented ?? app.delegate.implements(selector) else { return true }
        // The duration is when the app calls the completion handler; the app runs meanwhile, so time does not jump.
        let duration = live?.appliedDuration ?? app.delegate.duration(of: selector)
        record(id, .callback(selector: selector, state: app.state, args: args, duration: duration))
        if let live {
            guard performActions(id, inside: selector, live.actions) else { return false }
        } else if app.delegate.actions != nil, !performActions(id, inside: selector) {
            return false
        }
        if duration > Watchdog.backgroundWindow || live?.hung == true {
            apps[existing: id].windowWatchdog = time + Watchdog.backgroundWindow
            apps[existing: id].windowEnd = time + Watchdog.backgroundWindow
            apps[existing: id].windowKill = kill == .watchdog ? nil : kill
        } else {
            apps[existing: id].windowEnd = max(apps[existing: id].windowEnd ?? time, time + duration)
        }
        return true
    }

    /// Launches a not-running app into the background or wakes a suspended one, for a wake the system gives it
    /// (LIFECYCLE §11.6); false when it did not get there (a launch trap, the launch watchdog).
    mutating func runsInBackground(_ id: String, launchOptions: [String: JSONValue]) throws(Rejection) -> Bool {
        switch apps[existing: id].state {
        case .notRunning:
            if failsToLaunch(id, foreground: false) { return false }
            try ensureMemory(for: id)
            return launch(id, background: true, url: nil, options: launchOptions)
        case .suspended:
            return wakeInBackground(id)
        case .background, .inactive, .active:
            return true
        }
    }

    /// The shared budget ran out: each unfinished task's expiration handler runs, then the app suspends
    /// (tasks ended) or is killed (tasks left running).
    mutating func expireBackgroundTasks(_ id: String) {
        apps[existing: id].budgetExhausted = true
        let tasks = apps[existing: id].backgroundTasks
        if apps[existing: id].storedConfiguration.value.delegate.isLive { return expireLive(id, tasks) }
        for task in tasks {
            var args: [String: JSONValue] = ["task": .number(Double(task.id))]
            if let name = task.name { args["name"] = .string(name) }
            record(
                id,
                .callback(
                    selector: Selector.backgroundTaskExpirationHandler, state: .background, args: args, duration: 0))
        }
        if apps[existing: id].delegate.endsTasksOnExpiration {
            apps[existing: id].backgroundTasks = []
            for task in tasks { record(id, .backgroundTask(event: .expired, task: task.id, name: task.name)) }
        } else {
            end(id, .backgroundTaskExpired, notified: false)
        }
    }
}
