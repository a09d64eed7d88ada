package import LifecycleCore
package import LifecycleJSON

/// Device and app snapshots as the API shows them.
package enum SnapshotEncoder {
    /// Room to reserve for one app's answer: a default app takes about 830 bytes, so one reservation holds it
    /// (a writer that grows copies what it wrote and allocates again).
    package static let appBytes = 1024

    package static func app(_ app: AppInstance, on device: Device, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id")
        w.string(app.id)
        w.field("device")
        w.string(device.id)
        w.field("bundleId")
        w.string(app.configuration.bundleId)
        w.field("iosVersion")
        w.version(app.iosVersion)
        w.field("sdkVersion")
        w.version(app.configuration.sdkVersion ?? app.iosVersion)
        w.field("lifecycle")
        w.string(device.usesScenes(app) ? "scene" : "appDelegate")
        w.field("state")
        w.string(app.state.rawValue)
        w.field("stateSince")
        w.number(app.stateSince)
        if let stage = app.prewarmStage {
            // Only while prewarmed (LIFECYCLE §12.1): the process's `ActivePrewarm`.
            w.field("prewarmed")
            w.string(stage.rawValue)
        }
        w.field("lastSeq")
        w.int(Int(app.lastSeq))
        w.field("pendingNotifications")
        w.int(app.queuedNotifications.count)
        w.field("sessions")
        sessions(app.sessions, into: &w)
        w.field("backgroundTasks")
        w.beginArray()
        for task in app.backgroundTasks {
            w.beginObject()
            w.field("id")
            w.int(task.id)
            w.field("name")
            if let name = task.name { w.string(name) } else { w.null() }
            w.field("began")
            w.number(task.began)
            w.field("endsAt")
            if let endsAt = task.endsAt { w.number(endsAt) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.field("backgroundTimeRemaining")
        if let remaining = device.backgroundTimeRemaining(of: app) { w.number(remaining) } else { w.null() }
        w.field("backgroundActivities")
        strings(app.backgroundActivities, into: &w)
        w.field("pendingRedraws")
        w.int(app.pendingRedraws)
        w.field("resources")
        strings(app.resources.map(\.rawValue), into: &w)
        w.field("sensitiveViews")
        strings(app.configuration.sensitiveViews ?? [], into: &w)
        w.field("hiddenViews")
        strings(app.hiddenViews ?? [], into: &w)
        w.field("alerts")
        w.beginArray()
        for alert in app.alerts {
            w.beginObject()
            w.field("style")
            w.string(alert.style.rawValue)
            w.field("title")
            if let title = alert.title { w.string(title) } else { w.null() }
            w.field("shownAt")
            w.number(alert.shownAt)
            w.endObject()
        }
        w.endArray()
        w.field("restorableState")
        w.value(app.configuration.restorableState ?? .null)
        w.field("preservedState")
        preserved(app.preservedState, into: &w)
        w.field("protectedDataAvailable")
        w.bool(device.protectedDataAvailable)
        w.field("backgroundRefreshStatus")
        if let status = device.backgroundRefreshStatus(of: app) { w.string(status.rawValue) } else { w.null() }
        w.field("backgroundAppRefreshSwitch")
        w.bool(app.backgroundAppRefreshSwitch)
        w.field("wakesStoppedByForceQuit")
        w.bool(app.wakesStoppedByForceQuit)
        w.field("backgroundTransfers")
        w.beginArray()
        for transfer in app.backgroundTransfers {
            w.beginObject()
            w.field("session")
            w.string(transfer.session)
            w.field("task")
            w.string(transfer.task.rawValue)
            w.field("name")
            w.string(transfer.name)
            w.field("outcome")
            if let outcome = transfer.outcome { w.string(outcome.rawValue) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.field("pendingTaskRequests")
        w.beginArray()
        for pending in app.pendingTaskRequests {
            w.beginObject()
            taskRequest(pending.request, into: &w)
            w.field("submittedAt")
            w.number(pending.submittedAt)
            w.endObject()
        }
        w.endArray()
        w.field("runningTasks")
        w.beginArray()
        for task in app.runningTasks {
            w.beginObject()
            w.field("identifier")
            w.string(task.identifier)
            w.field("kind")
            w.string(task.kind.rawValue)
            w.field("began")
            w.number(task.began)
            w.field("expiresAt")
            if let expiry = task.expiresAt { w.number(expiry) } else { w.null() }
            w.field("progress")
            if let progress = task.progress { w.number(progress) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.field("termination")
        if let termination = app.termination {
            w.beginObject()
            w.field("reason")
            w.string(termination.reason.rawValue)
            w.field("time")
            w.number(termination.time)
            w.field("notified")
            w.bool(termination.notified)
            TerminationFields.write(termination.reason, foreground: termination.foreground, into: &w)
            w.endObject()
        } else {
            w.null()
        }
        w.field("info")
        info(app.configuration.info, into: &w)
        w.field("delegate")
        delegate(app.configuration.delegate, into: &w)
        w.field("memoryMB")
        w.int(app.configuration.memoryMB)
        w.endObject()
    }

    /// An app's `info` (its Info.plist keys), as its snapshot shows them and its creation takes them.
    package static func info(_ info: InfoPlist, into w: inout JSONWriter) {
        w.beginObject()
        w.field("exitsOnSuspend")
        w.bool(info.exitsOnSuspend)
        w.field("backgroundModes")
        strings(info.backgroundModes, into: &w)
        w.field("urlSchemes")
        strings(info.urlSchemes, into: &w)
        w.field("sceneManifest")
        if let manifest = info.sceneManifest { sceneManifest(manifest, into: &w) } else { w.null() }
        w.field("externalAccessoryProtocols")
        strings(info.externalAccessoryProtocols ?? [], into: &w)
        w.field("launchImages")
        strings(info.launchImages ?? [], into: &w)
        // Only when listed: configurations written before the key (exports among them) stay byte for byte.
        if let identifiers = info.bgTaskIdentifiers {
            w.field("bgTaskIdentifiers")
            strings(identifiers, into: &w)
        }
        w.endObject()
    }

    /// An app's `delegate`, as its snapshot shows it and its creation takes it.
    package static func delegate(_ delegate: DelegateBehaviour, into w: inout JSONWriter) {
        w.beginObject()
        w.field("notImplemented")
        strings(delegate.notImplemented.isEmpty ? [] : delegate.notImplemented.sorted(), into: &w)
        w.field("durations")
        w.beginObject()
        for key in delegate.durations.keys.sorted() {
            w.key(key)
            w.number(delegate.durations[key]!)
        }
        w.endObject()
        w.field("returns")
        w.beginObject()
        var returns = delegate.returns.mapValues(JSONValue.bool)
        if let name = delegate.configurationForConnecting {
            returns[Selector.configurationForConnecting] = .string(name)
        }
        for key in returns.keys.sorted() {
            w.key(key)
            w.value(returns[key]!)
        }
        w.endObject()
        w.field("endsTasksOnExpiration")
        w.bool(delegate.endsTasksOnExpiration)
        w.field("actions")
        w.beginObject()
        let actions = delegate.actions ?? [:]
        for selector in actions.keys.sorted() {
            w.key(selector)
            w.beginArray()
            for action in actions[selector]! { Self.action(action, into: &w) }
            w.endArray()
        }
        w.endObject()
        // Only a live delegate says so: a scripted app's delegate reads as it always did.
        if delegate.isLive {
            w.field("live")
            w.bool(true)
        }
        w.endObject()
    }

    /// One callback action as `delegate.actions` takes it: `do`, then its fields (absent optional ones left out).
    package static func action(_ action: CallbackAction, into w: inout JSONWriter) {
        w.beginObject()
        w.field("do")
        w.string(action.name.rawValue)
        switch action {
        case .beginBackgroundTask(let name, let duration):
            if let name {
                w.field("name")
                w.string(name)
            }
            if let duration {
                w.field("duration")
                w.number(duration)
            }
        case .useGPU:
            break
        case .acquire(let resource), .release(let resource):
            w.field("resource")
            w.string(resource.rawValue)
        case .hideViews(let views), .showViews(let views):
            if let views {
                w.field("views")
                strings(views, into: &w)
            }
        case .showAlert(let style, let title):
            w.field("style")
            w.string(style.rawValue)
            if let title {
                w.field("title")
                w.string(title)
            }
        case .dismissAlerts:
            break
        case .endBackgroundTask(let task):
            w.field("task")
            w.int(task)
        case .startBackgroundTransfer(let session, let task, let name):
            w.field("session")
            w.string(session)
            w.field("task")
            w.string(task.rawValue)
            w.field("name")
            w.string(name)
        case .submitTask(let request):
            taskRequest(request, into: &w)
        case .cancelTaskRequest(let identifier):
            w.field("identifier")
            w.string(identifier)
        case .reportProgress(let fraction):
            w.field("fraction")
            w.number(fraction)
        }
        w.endObject()
    }

    /// A BGTaskScheduler request's members, as a `submitTask` action takes them (absent optional ones left out).
    private static func taskRequest(_ request: ScheduledTaskRequest, into w: inout JSONWriter) {
        w.field("kind")
        w.string(request.kind.rawValue)
        w.field("identifier")
        w.string(request.identifier)
        if let begin = request.earliestBegin {
            w.field("earliestBegin")
            w.number(begin)
        }
        if let power = request.requiresExternalPower {
            w.field("requiresExternalPower")
            w.bool(power)
        }
        if let network = request.requiresNetworkConnectivity {
            w.field("requiresNetworkConnectivity")
            w.bool(network)
        }
        if let strategy = request.strategy {
            w.field("strategy")
            w.string(strategy.rawValue)
        }
        if let title = request.title {
            w.field("title")
            w.string(title)
        }
    }

    /// What the system kept of an app's or a scene's state, or null.
    private static func preserved(_ preserved: PreservedState?, into w: inout JSONWriter) {
        guard let preserved else { return w.null() }
        w.beginObject()
        w.field("state")
        w.value(preserved.state)
        w.field("savedAt")
        w.number(preserved.savedAt)
        w.endObject()
    }

    private static func sessions(_ sessions: [SceneSession], into w: inout JSONWriter) {
        w.beginArray()
        for session in sessions {
            w.beginObject()
            w.field("id")
            w.string(session.id)
            w.field("configuration")
            if let configuration = session.configuration { w.string(configuration) } else { w.null() }
            w.field("role")
            w.string(session.role)
            w.field("state")
            w.string(session.state.rawValue)
            w.field("stateSince")
            w.number(session.stateSince)
            w.field("pendingDiscard")
            w.bool(session.pendingDiscard)
            w.field("stateRestorationActivity")
            preserved(session.restorationActivity, into: &w)
            w.endObject()
        }
        w.endArray()
    }

    private static func sceneManifest(_ manifest: SceneManifest, into w: inout JSONWriter) {
        w.beginObject()
        w.field("supportsMultipleScenes")
        w.bool(manifest.supportsMultipleScenes)
        w.field("configurations")
        w.beginArray()
        for configuration in manifest.configurations {
            w.beginObject()
            w.field("name")
            w.string(configuration.name)
            w.field("role")
            w.string(configuration.role)
            w.field("delegateClass")
            if let delegateClass = configuration.delegateClass { w.string(delegateClass) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// A suspended app's queue: `{"items": [{"name", "userInfo", "queuedAt", "coalesced"}]}`.
    package static func queue(_ items: [QueuedNotification], into w: inout JSONWriter) {
        w.beginObject()
        w.field("items")
        w.beginArray()
        for item in items {
            w.beginObject()
            w.field("name")
            w.string(item.name)
            w.field("userInfo")
            w.value(.object(item.userInfo))
            w.field("queuedAt")
            w.number(item.queuedAt)
            w.field("coalesced")
            w.int(item.coalesced)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// A device's configuration as its snapshot shows it and its creation takes it, from `iosVersion` to
    /// `idiom`; `clockMode` in place of the configured one when given (an export replays realtime as manual).
    package static func configurationMembers(
        _ configuration: DeviceConfiguration, clockMode: ClockMode? = nil, into w: inout JSONWriter
    ) {
        w.field("iosVersion")
        w.version(configuration.iosVersion)
        w.field("multitasking")
        w.bool(configuration.multitasking)
        w.field("passcode")
        w.bool(configuration.passcode)
        w.field("memoryMB")
        w.int(configuration.memoryMB)
        w.field("clock")
        w.beginObject()
        w.field("mode")
        w.string((clockMode ?? configuration.clockMode).rawValue)
        w.field("speed")
        w.number(configuration.clockSpeed)
        w.endObject()
        w.field("suspendDelay")
        w.number(configuration.suspendDelay)
        w.field("idiom")
        w.string(configuration.idiom.rawValue)
    }

    private static func strings(_ items: [String], into w: inout JSONWriter) {
        w.beginArray()
        for item in items { w.string(item) }
        w.endArray()
    }

    package static func device(_ device: Device, into w: inout JSONWriter) {
        let configuration = device.configuration
        w.beginObject()
        w.field("id")
        w.string(device.id)
        configurationMembers(configuration, into: &w)
        w.field("sceneDisconnectDelay")
        if let delay = configuration.sceneDisconnectDelay { w.number(delay) } else { w.null() }
        w.field("settings")
        w.value(.object(device.settings))
        w.field("time")
        w.number(device.time)
        w.field("locked")
        w.bool(device.locked)
        if device.firstUnlockPending == true {
            // Only from a restart until the first unlock (LIFECYCLE §12.2).
            w.field("firstUnlockPending")
            w.bool(true)
        }
        w.field("foregroundApp")
        if let front = device.foregroundApp { w.string(front) } else { w.null() }
        w.field("interruption")
        if let interruption = device.interruption { w.string(interruption.rawValue) } else { w.null() }
        w.field("notificationCenterOpen")
        w.bool(device.notificationCenterOpen)
        w.field("appSwitcherOpen")
        w.bool(device.appSwitcherOpen)
        w.field("call")
        if let since = device.callSince {
            w.beginObject()
            w.field("since")
            w.number(since)
            w.endObject()
        } else {
            w.null()
        }
        w.field("memoryInUseMB")
        w.int(device.memoryInUseMB)
        w.field("apps")
        strings(device.appOrder, into: &w)
        w.field("lastSeq")
        w.int(Int(device.lastSeq))
        w.endObject()
    }
}
