/// BGTaskScheduler (LIFECYCLE §15, iOS 13 and later; continued processing tasks from iOS 26): the requests an
/// app submits from its callbacks, the system's decision to run one (`launchTask`), the task's time, its
/// expiration, and the user's cancel.
extension Device {
    /// Why the app cannot be put on this device with these actions: a BGTaskScheduler call on an OS that has none.
    func scheduledTaskVersionFailure(of configuration: AppConfiguration) -> Rejection? {
        let os = self.configuration.iosVersion
        for (selector, list) in configuration.delegate.actions ?? [:] {
            for case .submitTask(let request) in list where os < request.kind.since {
                return .invalidField(
                    "delegate.actions",
                    "\(selector) submits a \(request.kind.rawValue) task: BGTaskScheduler has it from iOS "
                        + "\(request.kind.since); device \(id) runs iOS \(os)")
            }
        }
        return nil
    }

    /// `submit(_:)` from inside `selector`: the request waits for the system (a continued task starts at once if
    /// it can), or a `refused` entry names the error.
    mutating func submitTask(_ id: String, _ request: ScheduledTaskRequest, inside selector: String) {
        if let error = submissionError(id, request, inside: selector) {
            record(id, scheduledTaskEntry(.refused, request.identifier, request.kind, reason: error))
            return
        }
        var pending = apps[existing: id].pendingTaskRequests
        pending.removeAll { $0.request.identifier == request.identifier && $0.request.kind != .continued }
        record(id, scheduledTaskEntry(.submitted, request.identifier, request.kind))
        if request.kind == .continued, runningContinuedCount < ScheduledTasks.continuedAtOnce {
            apps[existing: id].taskRequests = pending.isEmpty ? nil : pending
            begin(id, PendingTaskRequest(request: request, submittedAt: time))
            return
        }
        pending.append(PendingTaskRequest(request: request, submittedAt: time))
        apps[existing: id].taskRequests = pending
    }

    /// BGTaskScheduler's error for the submission, in the order the checks are made; nil: it is accepted.
    private func submissionError(_ id: String, _ request: ScheduledTaskRequest, inside selector: String)
        -> ScheduledTaskReason?
    {
        let app = apps[existing: id]
        guard ScheduledTasks.permits(app.configuration.info.bgTaskIdentifiers ?? [], request.identifier) else {
            return .notPermitted
        }
        switch request.kind {
        case .refresh, .processing:
            let mode = request.kind == .refresh ? "fetch" : "processing"
            guard app.configuration.info.backgroundModes.contains(mode) else { return .notPermitted }
            if refreshDenial(of: app) != nil { return .unavailable }
            let others = app.pendingTaskRequests.filter {
                $0.request.kind == request.kind && $0.request.identifier != request.identifier
            }
            let limit = request.kind == .refresh ? ScheduledTasks.pendingRefresh : ScheduledTasks.pendingProcessing
            if others.count >= limit { return .tooManyPendingTaskRequests }
        case .continued:
            // From the foreground, as the result of the user's action (chosen: a tap the app handles).
            guard app.state == .active, selector == ScheduledTasks.userAction else { return .notPermitted }
            if request.strategy == .fail, runningContinuedCount >= ScheduledTasks.continuedAtOnce {
                return .immediateRunIneligible
            }
        }
        return nil
    }

    /// `cancel(taskRequestWithIdentifier:)`: a request of the app's that has not run is dropped.
    mutating func cancelTaskRequest(_ id: String, identifier: String) {
        let pending = apps[existing: id].pendingTaskRequests
        guard let index = pending.firstIndex(where: { $0.request.identifier == identifier }) else { return }
        var left = pending
        left.remove(at: index)
        apps[existing: id].taskRequests = left.isEmpty ? nil : left
        record(id, scheduledTaskEntry(.cancelled, identifier, pending[index].request.kind, reason: .app))
    }

    /// A continued task reports progress from its launch handler (chosen: the app's newest continued task).
    mutating func reportProgress(_ id: String, fraction: Double) {
        guard var tasks = apps[existing: id].scheduledTasks,
            let index = tasks.lastIndex(where: { $0.kind == .continued })
        else { return }
        tasks[index].progress = fraction
        apps[existing: id].scheduledTasks = tasks
        record(
            id,
            .scheduledTask(
                event: .progress, identifier: tasks[index].identifier, kind: .continued, reason: nil,
                progress: fraction))
    }

    /// The system runs app `app`'s pending request `identifier` now (`_simulateLaunchForTaskWithIdentifier:`).
    mutating func launchTask(app: String, identifier: String) throws(Rejection) {
        guard apps.contains(app) else {
            throw Rejection(code: .notFound, detail: "no app \(app) on device \(id)", allowed: appOrder, field: "app")
        }
        let state = apps[existing: app].state
        guard configuration.iosVersion >= ScheduledTaskKind.refresh.since else {
            throw .transition(
                "BGTaskScheduler exists from iOS 13.0; device \(id) runs iOS \(configuration.iosVersion)",
                state: state)
        }
        let pending = apps[existing: app].pendingTaskRequests.filter { $0.request.kind != .continued }
        guard let request = pending.first(where: { $0.request.identifier == identifier }) else {
            throw .transition(
                "no task request with identifier \(identifier) is pending for app \(app)", state: state,
                allowed: pending.map(\.request.identifier))
        }
        guard !state.isForeground else {
            throw .transition(
                "the system runs BGTaskScheduler tasks for apps in the background", state: state,
                allowed: ["background", "suspended", "notRunning"])
        }
        if let notBefore = request.notBefore, time < notBefore {
            throw .transition(
                "the request's earliestBeginDate is \(notBefore.plainText): the system does not run it sooner",
                state: state)
        }
        if request.request.kind == .processing {
            guard locked else {
                throw .transition("processing tasks run only while the device is idle (locked)", state: state)
            }
            if request.request.requiresExternalPower == true, !onExternalPower {
                throw .transition(
                    "the request requires external power: batteryState is unplugged", state: state,
                    allowed: ["charging", "full"])
            }
        }
        recordDevice(
            .launchTask(app: app, identifier: identifier), ["app": .string(app), "identifier": .string(identifier)])
        apps.focus(app)
        guard admitWake(app, .backgroundTask) else { return }
        let left = apps[existing: app].pendingTaskRequests.filter { $0 != request }
        apps[existing: app].taskRequests = left.isEmpty ? nil : left
        guard try runsInBackground(app, launchOptions: [:]) else { return }
        begin(app, request)
    }

    /// The user cancels the app's continued task from its Live Activity (iOS 26 and later).
    mutating func cancelContinuedTask(_ id: String, identifier: String) throws(Rejection) {
        let state = apps[existing: id].state
        guard configuration.iosVersion >= ScheduledTaskKind.continued.since else {
            throw .transition(
                "continued processing tasks exist from iOS 26.0; device \(self.id) runs iOS "
                    + "\(configuration.iosVersion)", state: state)
        }
        if let task = apps[existing: id].runningTasks.first(where: {
            $0.kind == .continued && $0.identifier == identifier
        }) {
            expire(id, task, reason: .user)
            return
        }
        let queued = apps[existing: id].pendingTaskRequests.filter { $0.request.kind == .continued }
        guard let request = queued.first(where: { $0.request.identifier == identifier }) else {
            let running = apps[existing: id].runningTasks.filter { $0.kind == .continued }.map(\.identifier)
            throw .transition(
                "app \(id) has no continued task \(identifier)", state: state,
                allowed: running + queued.map(\.request.identifier))
        }
        let left = apps[existing: id].pendingTaskRequests.filter { $0 != request }
        apps[existing: id].taskRequests = left.isEmpty ? nil : left
        record(id, scheduledTaskEntry(.cancelled, identifier, .continued, reason: .user))
    }

    /// The user swipes the app away: its continued tasks, running or queued, are cancelled (Apple: "The system
    /// cancels queued … objects if someone closes your app using the app switcher"). Answers what to record once
    /// the app has ended; `recordSwitcherCancels` records it.
    func continuedTasks(of id: String) -> [String] {
        apps[existing: id].runningTasks.filter { $0.kind == .continued }.map(\.identifier)
            + apps[existing: id].pendingTaskRequests.filter { $0.request.kind == .continued }.map(\.request.identifier)
    }

    mutating func recordSwitcherCancels(_ id: String, _ identifiers: [String]) {
        guard !identifiers.isEmpty else { return }
        let left = apps[existing: id].pendingTaskRequests.filter { $0.request.kind != .continued }
        apps[existing: id].taskRequests = left.isEmpty ? nil : left
        for identifier in identifiers {
            record(id, scheduledTaskEntry(.cancelled, identifier, .continued, reason: .appSwitcher))
        }
        startQueuedContinuedTasks()
    }

    /// The user starts using the device: every processing task running ends (Apple: "The system terminates any
    /// background processing tasks running when the user starts using the device").
    mutating func stopProcessingTasks() {
        for id in appOrder {
            for task in apps[existing: id].runningTasks where task.kind == .processing {
                guard apps[existing: id].state != .notRunning else { break }
                expire(id, task, reason: .deviceInUse)
            }
        }
    }

    /// The earliest of app `id`'s task deadlines: a completion or an expiry.
    func scheduledTaskDeadline(of id: String) -> Double? {
        guard let tasks = apps[existing: id].scheduledTasks else { return nil }
        return tasks.map { min($0.completesAt, $0.expiresAt ?? .infinity) }.min()
    }

    /// Ends the tasks whose completion or expiry is due, in the order they began.
    mutating func fireScheduledTasks(_ id: String) {
        for task in apps[existing: id].runningTasks {
            guard apps[existing: id].state != .notRunning else { return }
            if task.completesAt <= time, task.completesAt <= task.expiresAt ?? .infinity {
                finish(id, task)
                record(id, scheduledTaskEntry(.completed, task.identifier, task.kind))
                if task.kind == .continued { startQueuedContinuedTasks() }
            } else if let expiry = task.expiresAt, expiry <= time {
                expire(id, task, reason: .timeUp)
            }
        }
    }

    // MARK: - The steps

    /// The system runs a task: a `began` entry, the launch handler (its actions as it starts), and the task runs
    /// until the handler's duration (`setTaskCompleted`) or its time ends.
    private mutating func begin(_ id: String, _ pending: PendingTaskRequest) {
        let request = pending.request
        record(id, scheduledTaskEntry(.began, request.identifier, request.kind))
        guard apps[existing: id].delegate.implements(ScheduledTasks.launchHandler) else {
            // No handler registered for the identifier: the system ends the task, unsuccessful (chosen).
            record(id, scheduledTaskEntry(.expired, request.identifier, request.kind, reason: .noLaunchHandler))
            if request.kind == .continued { startQueuedContinuedTasks() }
            return
        }
        let duration = apps[existing: id].delegate.duration(of: ScheduledTasks.launchHandler)
        let window: Double? =
            switch request.kind {
            case .refresh: ScheduledTasks.refreshWindow
            case .processing: ScheduledTasks.processingWindow
            case .continued: nil
            }
        let task = RunningScheduledTask(
            identifier: request.identifier, kind: request.kind, began: time,
            completesAt: min(time + duration, Self.maximumTime), expiresAt: window.map { time + $0 }, progress: nil)
        apps[existing: id].scheduledTasks = apps[existing: id].runningTasks + [task]
        var args: [String: JSONValue] = [
            "identifier": .string(request.identifier), "kind": .string(request.kind.rawValue),
        ]
        if let title = request.title { args["title"] = .string(title) }
        record(
            id,
            .callback(
                selector: ScheduledTasks.launchHandler, state: apps[existing: id].state, args: args, duration: duration)
        )
        if apps[existing: id].delegate.actions != nil {
            _ = performActions(id, inside: ScheduledTasks.launchHandler)
        }
    }

    /// The task's time is over, or the system or the user stops it: the expiration handler, then the task ends
    /// unsuccessfully; a delegate that leaves its tasks running at expiration (`endsTasksOnExpiration` false) has
    /// the app killed, `0x2182bad2` (LIFECYCLE §15). An app that set no handler has its task simply ended.
    private mutating func expire(_ id: String, _ task: RunningScheduledTask, reason: ScheduledTaskReason) {
        let delegate = apps[existing: id].delegate
        if delegate.implements(ScheduledTasks.expirationHandler) {
            record(
                id,
                .callback(
                    selector: ScheduledTasks.expirationHandler, state: apps[existing: id].state,
                    args: ["identifier": .string(task.identifier), "kind": .string(task.kind.rawValue)], duration: 0))
            if !delegate.endsTasksOnExpiration {
                end(id, .scheduledTaskExpired, notified: false)
                return
            }
        }
        finish(id, task)
        let event: ScheduledTaskEvent = reason == .user || reason == .appSwitcher ? .cancelled : .expired
        record(id, scheduledTaskEntry(event, task.identifier, task.kind, reason: reason))
        if task.kind == .continued { startQueuedContinuedTasks() }
    }

    private mutating func finish(_ id: String, _ task: RunningScheduledTask) {
        let left = apps[existing: id].runningTasks.filter { $0 != task }
        apps[existing: id].scheduledTasks = left.isEmpty ? nil : left
    }

    /// Starts queued continued tasks, oldest first across the device, while there is room.
    private mutating func startQueuedContinuedTasks() {
        while runningContinuedCount < ScheduledTasks.continuedAtOnce {
            var oldest: (app: String, request: PendingTaskRequest)?
            for id in appOrder {
                for pending in apps[existing: id].pendingTaskRequests where pending.request.kind == .continued {
                    if oldest == nil || pending.submittedAt < oldest!.request.submittedAt { oldest = (id, pending) }
                    break
                }
            }
            guard let (id, pending) = oldest else { return }
            let left = apps[existing: id].pendingTaskRequests.filter { $0 != pending }
            apps[existing: id].taskRequests = left.isEmpty ? nil : left
            // A queued task whose app the system ended runs it again in the background (chosen).
            guard (try? runsInBackground(id, launchOptions: [:])) == true else { continue }
            begin(id, pending)
        }
    }

    private var runningContinuedCount: Int {
        appOrder.reduce(0) { count, id in
            count + apps[existing: id].runningTasks.filter { $0.kind == .continued }.count
        }
    }

    /// Whether the device is on external power: `batteryState` charging or full.
    private var onExternalPower: Bool {
        let state = setting(.batteryState)?.stringValue
        return state == "charging" || state == "full"
    }

    private func scheduledTaskEntry(
        _ event: ScheduledTaskEvent, _ identifier: String, _ kind: ScheduledTaskKind,
        reason: ScheduledTaskReason? = nil
    ) -> TimelineEntry.Body {
        .scheduledTask(event: event, identifier: identifier, kind: kind, reason: reason, progress: nil)
    }
}

extension ScheduledTasks {
    /// The first rule the configuration's permitted identifiers break (its task actions: `CallbackAction.validationFailure`).
    static func validationFailure(of configuration: AppConfiguration) -> Rejection? {
        let identifiers = configuration.info.bgTaskIdentifiers ?? []
        if identifiers.count > maxIdentifiers {
            return .invalidField(
                "info.bgTaskIdentifiers",
                "an app lists at most \(maxIdentifiers) task identifiers, not \(identifiers.count)")
        }
        for name in identifiers where name.isEmpty || name.unicodeScalars.count > 255 {
            return .invalidField(
                "info.bgTaskIdentifiers",
                "each task identifier is a non-empty string of at most 255 characters, like com.example.refresh")
        }
        return nil
    }
}
