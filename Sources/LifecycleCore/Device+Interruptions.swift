/// Alerts, banners, Notification Center, lock and unlock (LIFECYCLE §5).
extension Device {
    /// The foreground app resigns active, if it is active.
    mutating func resignFront() {
        guard let front = foregroundApp, apps[existing: front].state == .active else { return }
        if usesScenes(front) {
            deactivateScenes(front)
            return
        }
        invoke(front, Selector.willResignActive)
        setState(front, .inactive)
    }

    /// The foreground app becomes active again once nothing covers it.
    mutating func reactivateFront() {
        guard let front = foregroundApp, apps[existing: front].state == .inactive, interruption == nil,
            !notificationCenterOpen, !appSwitcherOpen, !locked
        else { return }
        becomeActive(front)
    }

    mutating func beginInterruption(_ kind: InterruptionKind) {
        interruption = kind
        resignFront()
    }

    mutating func endInterruption(accepted: Bool) {
        // Answering a call starts one; the status bar shows it to apps in front until it ends.
        if accepted, interruption == .call { callSince = time }
        interruption = nil
        if accepted {
            // Taken, the interruption's own screen (the call) comes in front as another app would: Notification
            // Center (seed 000 §3.2) and the app switcher (chosen) close under it, with no entry of their own.
            notificationCenterOpen = false
            appSwitcherShown = nil
        }
        if accepted, let front = foregroundApp {
            // Taking the call: the app leaves as on Home (seed 003 step 7 before iOS 4).
            leaveForeground(front)
        } else {
            reactivateFront()
        }
    }

    mutating func banner() {
        // Before iOS 5 every notification is an alert (LIFECYCLE §2); an alert already up stays the only one.
        if !configuration.iosVersion.hasBanners, interruption == nil { beginInterruption(.alert) }
    }

    mutating func openNotificationCenter() throws(Rejection) {
        guard configuration.iosVersion.hasNotificationCenter else {
            throw .transition("Notification Center exists from iOS 5.0; this device runs \(configuration.iosVersion)")
        }
        recordDevice(.notificationCenterOpened, [:])
        guard !notificationCenterOpen else { return }
        notificationCenterOpen = true
        resignFront()
    }

    mutating func closeNotificationCenter() throws(Rejection) {
        guard notificationCenterOpen else {
            throw .transition("Notification Center is not open", allowed: ["notificationCenterOpened"])
        }
        recordDevice(.notificationCenterClosed, [:])
        notificationCenterOpen = false
        reactivateFront()
    }

    mutating func lock() {
        guard !locked else { return }  // the sleep button on a locked phone changes nothing
        locked = true
        notificationCenterOpen = false
        appSwitcherShown = nil
        if let front = foregroundApp {
            resignFront()
            if capabilities(of: front).lockBackgrounds, apps[existing: front].state == .inactive {
                appBeforeLock = front
                leaveForeground(front)
            }
        }
        // Before the first unlock since a restart, protected data is unavailable already (§12.2).
        if configuration.passcode, firstUnlockPending != true { protectedDataChanged(available: false) }
    }

    mutating func unlock() {
        // The user starts using the device: processing tasks end (LIFECYCLE §15).
        stopProcessingTasks()
        locked = false
        firstUnlockPending = nil
        if configuration.passcode { protectedDataChanged(available: true) }
        if foregroundApp != nil {
            // Before iOS 5 the app stayed in front, inactive.
            reactivateFront()
        } else if let previous = appBeforeLock, let state = apps[previous]?.state,
            state == .background || state == .suspended
        {
            resume(previous, url: nil)
        }
        appBeforeLock = nil
    }

    /// Every running app hears that protected data went away or came back; suspended ones get it queued.
    mutating func protectedDataChanged(available: Bool) {
        let selector =
            available ? Selector.protectedDataDidBecomeAvailable : Selector.protectedDataWillBecomeUnavailable
        let value: JSONValue = available ? "available" : "unavailable"
        for id in appOrder {
            let app = apps[existing: id]
            guard capabilities(of: app).hasProtectedData else { continue }
            if app.state.isRunning {
                invoke(id, selector)
            } else if app.state == .suspended {
                enqueue(
                    id, kind: "protectedData", name: Selector.notification(after: selector)!, userInfo: [:],
                    value: value, previous: available ? "unavailable" : "available")
            }
        }
    }
}

/// The app switcher (LIFECYCLE §5, seed 003 step 6): shown over the app in front without ending it.
extension Device {
    mutating func openAppSwitcher() throws(Rejection) {
        guard configuration.iosVersion >= Version(4, 0), configuration.multitasking else {
            throw .transition(
                "the app switcher exists from iOS 4.0 on a multitasking device; this device runs "
                    + "\(configuration.iosVersion)\(configuration.multitasking ? "" : " without multitasking")")
        }
        // What keeps an app from coming in front keeps the switcher closed too, with the same words.
        try checkForegroundAllowed(for: foregroundApp)
        recordDevice(.appSwitcherOpened, [:])
        guard !appSwitcherOpen else { return }
        appSwitcherShown = true
        resignFront()
    }

    mutating func closeAppSwitcher() throws(Rejection) {
        guard appSwitcherOpen else {
            throw .transition("the app switcher is not open", allowed: ["appSwitcherOpened"])
        }
        recordDevice(.appSwitcherClosed, [:])
        appSwitcherShown = nil
        reactivateFront()
    }
}
