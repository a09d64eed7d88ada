extension Device {
    /// Applies a batch of events in order, all or nothing.
    ///
    /// `app` is the app the events were posted for (nil on a device's path): app events need it,
    /// device events go to this device. With a realtime clock the device first advances to `now`;
    /// a manual clock ignores `now`. On a rejection nothing changes, not even the time, and the
    /// rejection's `index` names the event that failed.
    ///
    /// `answering` answers the callbacks of live delegates (LIFECYCLE §13); without one they hang.
    public mutating func apply(
        _ events: [Event], app: String?, now: Double, answering: (any CallbackAnswering)? = nil
    ) throws(Rejection) -> Outcome {
        // Rolling back restores the device as it was, every field of it, without the app table: that rolls
        // back only the apps the batch touched, so a batch costs the same whatever the number of apps. (The
        // saved copy must not share the table, or the batch's first change would copy it: the table steps out
        // while the copy is made, which spares retaining and releasing its parts.)
        var table = AppTable()
        swap(&table, &apps)
        let saved = self
        swap(&table, &apps)
        log = []
        log.reserveCapacity(8)
        quietChange = false
        if let answering { liveCalls = LiveCalls(answerer: answering) }
        apps.beginBatch()
        let before = observableDeviceFields
        let movesTo = events.contains { if case .moveTo = $0 { true } else { false } }
        if configuration.clockMode == .realtime { advanceInPlace(to: now) }
        let fromDeadlines = log.count
        var applied: [Event] = []
        for (index, event) in events.enumerated() {
            do {
                let steps = try applyOne(event, app: app)
                if movesTo { applied += steps ?? [event] }
            } catch var rejection {
                rejection.index = index
                apps.rollBackBatch()
                let apps = self.apps
                self = saved
                self.apps = apps
                log = []
                quietChange = false
                launchWatchdog = nil
                liveCalls = nil
                // The state the client sees is the app's as it is now, after the rollback (API.md).
                if let app, let state = apps[app]?.state { rejection.state = state }
                throw rejection
            }
            advanceInPlace(to: time)
        }
        apps.commitBatch()
        let entries = log
        let changed =
            quietChange || observableDeviceFields != before
            || entries[fromDeadlines...].contains { if case .device = $0.body { false } else { true } }
        log = []
        quietChange = false
        return Outcome(
            entries: entries, changed: changed, applied: movesTo ? applied : nil, answers: takeLiveAnswers())
    }

    /// Moves the clock to `now` (never back), firing every deadline on the way in order; `answering` answers
    /// the callbacks of live delegates the deadlines bring.
    public mutating func advance(to now: Double, answering: (any CallbackAnswering)? = nil) -> Outcome {
        log = []
        if let answering { liveCalls = LiveCalls(answerer: answering) }
        let before = observableDeviceFields
        advanceInPlace(to: now)
        let entries = log
        log = []
        return Outcome(
            entries: entries, changed: !entries.isEmpty || observableDeviceFields != before,
            answers: takeLiveAnswers())
    }

    /// The answers the input got, and live delegates asked of nobody until the next input.
    private mutating func takeLiveAnswers() -> [CallbackAnswer] {
        guard let answers = liveCalls?.answers else { return [] }
        liveCalls = nil
        return answers
    }

    /// What a client sees of the device itself, to tell whether an input changed something.
    private var observableDeviceFields: ObservableDeviceFields {
        ObservableDeviceFields(
            time: time, locked: locked, foregroundApp: foregroundApp, interruption: interruption,
            notificationCenterOpen: notificationCenterOpen, appSwitcherOpen: appSwitcherOpen, callSince: callSince,
            settings: settings)
    }

    /// Applies one event; answers the ordinary events a `moveTo` amounts to (its steps), nil for any other.
    @discardableResult
    mutating func applyOne(_ event: Event, app target: String?) throws(Rejection) -> [Event]? {
        if event.isDeviceEvent {
            try applyDeviceEvent(event)
            return nil
        }
        guard let target else {
            throw Rejection.invalidField(
                "type", "\(event.type) is an app event: post it to /v1/apps/{id}/events", allowed: Event.deviceTypes)
        }
        guard apps.contains(target) else {
            throw Rejection(code: .notFound, detail: "no app \(target) on device \(id)")
        }
        apps.focus(target)
        if case .moveTo(let state) = event { return try moveTo(state, app: target) }
        try applyAppEvent(event, to: target)
        return nil
    }

    private mutating func applyAppEvent(_ event: Event, to id: String) throws(Rejection) {
        switch event {
        case .launch(let background, let url, let source):
            try launchEvent(id, background: background, url: url.map { OpenedURL(url: $0, source: source) })
        case .activate(let session):
            try activateEvent(id, session: session)
        case .openURL(let url, let source, let annotation, let session):
            try openURLEvent(id, OpenedURL(url: url, source: source, annotation: annotation), session: session)
        case .terminate:
            terminateEvent(id)
        case .forceQuit:
            forceQuit(id)
        case .crash:
            crash(id)
        case .beginBackgroundTask(let name, let duration):
            try beginBackgroundTask(id, name: name, duration: duration)
        case .endBackgroundTask(let task):
            try endBackgroundTask(id, task: task)
        case .startBackgroundActivity(let mode):
            try startBackgroundActivity(id, mode: mode)
        case .stopBackgroundActivity(let mode):
            try stopBackgroundActivity(id, mode: mode)
        case .remoteNotification(let payload, let contentAvailable):
            try remoteNotification(id, payload: payload, contentAvailable: contentAvailable)
        case .tapNotification(let source, let payload):
            try tapNotification(id, source: source, payload: payload)
        case .backgroundFetch:
            try backgroundFetch(id)
        case .memoryWarning:
            try memoryWarning(id)
        case .prewarm(let stage):
            try prewarm(id, stage: stage)
        case .runLoop(let input):
            deliver(input, to: id)
        case .openScene(let session, let url, let source, let placement):
            try openScene(
                id, session: session, url: url.map { OpenedURL(url: $0, source: source) }, placement: placement)
        case .closeScene(let session):
            try closeScene(id, session: session)
        case .disconnectScene(let session):
            try disconnectSceneEvent(id, session: session)
        case .backgroundAppRefreshSwitch(let enabled):
            try backgroundAppRefreshSwitch(id, enabled: enabled)
        case .finishTransfer(let name, let outcome):
            try finishTransfer(id, name: name, outcome: outcome)
        case .cancelContinuedTask(let identifier):
            try cancelContinuedTask(id, identifier: identifier)
        case .moveTo:
            preconditionFailure("applyOne applies moveTo, which answers the steps it applied")
        case .homeButton, .switchApp, .lock, .unlock, .interruptionBegan, .interruptionEnded, .callEnded,
            .bannerNotification, .appSwitcherOpened, .appSwitcherClosed, .notificationCenterOpened,
            .notificationCenterClosed, .memoryPressure, .reboot, .advanceTime, .change, .launchTask:
            try applyDeviceEvent(event)
        }
    }

    private mutating func applyDeviceEvent(_ event: Event) throws(Rejection) {
        switch event {
        case .homeButton:
            recordDevice(event, [:])
            homeButton()
        case .switchApp(let to):
            guard apps.contains(to) else {
                throw Rejection(code: .notFound, detail: "no app \(to) on device \(id)", allowed: appOrder, field: "to")
            }
            startFromOverlay(to)
            try checkForegroundAllowed(for: to)
            recordDevice(event, ["to": .string(to)])
            try bringToForeground(to, url: nil)
        case .lock:
            recordDevice(event, [:])
            lock()
        case .unlock:
            // The passcode entered for the first time since a restart unlocks protected data (§12.2).
            guard locked || firstUnlockPending == true else {
                throw .transition("the device is not locked", allowed: ["lock"])
            }
            recordDevice(event, [:])
            unlock()
        case .interruptionBegan(let kind):
            if let current = interruption {
                throw .transition(
                    "an interruption (\(current.rawValue)) is already in progress", allowed: ["interruptionEnded"])
            }
            recordDevice(event, ["kind": .string(kind.rawValue)])
            beginInterruption(kind)
        case .interruptionEnded(let accepted):
            guard interruption != nil else {
                throw .transition(
                    "no interruption is in progress", allowed: ["interruptionBegan", "bannerNotification"])
            }
            recordDevice(event, ["accepted": .bool(accepted)])
            endInterruption(accepted: accepted)
        case .callEnded:
            guard callSince != nil else {
                throw .transition(
                    "no call is in progress: a call is in progress once the user answers one",
                    allowed: ["interruptionEnded"])
            }
            recordDevice(event, [:])
            endCall()
        case .bannerNotification(let title):
            recordDevice(event, title.map { ["title": .string($0)] } ?? [:])
            banner()
        case .notificationCenterOpened:
            try openNotificationCenter()
        case .notificationCenterClosed:
            try closeNotificationCenter()
        case .appSwitcherOpened:
            try openAppSwitcher()
        case .appSwitcherClosed:
            try closeAppSwitcher()
        case .memoryPressure(let level):
            recordDevice(event, ["level": .string(level.rawValue)])
            memoryPressure(level)
        case .reboot:
            recordDevice(event, [:])
            reboot()
        case .advanceTime(let seconds):
            let room = Self.maximumTime - time
            guard seconds >= 0, seconds <= room else {
                throw .invalidField(
                    "seconds",
                    "seconds must be from 0 to \(room.plainText) here: the device clock reads \(time.plainText) and "
                        + "stops at \(Self.maximumTime.plainText)")
            }
            recordDevice(event, ["seconds": .number(seconds)])
            advanceInPlace(to: time + seconds)
        case .change(let kind, let value):
            if let failure = kind.validationFailure(for: value) { throw failure }
            var detail: [String: JSONValue] = ["kind": .string(kind.rawValue)]
            if let value { detail["value"] = value }
            recordDevice(event, detail)
            change(kind, value: value)
        case .launchTask(let app, let identifier):
            try launchTask(app: app, identifier: identifier)
        case .launch, .activate, .openURL, .terminate, .forceQuit, .crash, .beginBackgroundTask, .endBackgroundTask,
            .startBackgroundActivity, .stopBackgroundActivity, .remoteNotification, .tapNotification, .backgroundFetch,
            .memoryWarning, .prewarm, .runLoop, .openScene, .closeScene, .disconnectScene, .moveTo,
            .backgroundAppRefreshSwitch, .finishTransfer, .cancelContinuedTask:
            preconditionFailure("applyDeviceEvent is only called for device events")
        }
    }
}

private struct ObservableDeviceFields: Equatable {
    var time: Double
    var locked: Bool
    var foregroundApp: String?
    var interruption: InterruptionKind?
    var notificationCenterOpen: Bool
    var appSwitcherOpen: Bool
    var callSince: Double?
    var settings: [String: JSONValue]
}
