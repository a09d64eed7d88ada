/// A tap on an app's notification: a banner, an alert, an entry of Notification Center (LIFECYCLE §5).
extension Device {
    mutating func tapNotification(_ id: String, source: NotificationSource, payload: JSONValue?) throws(Rejection) {
        let state = apps[existing: id].state
        if usesScenes(id) {
            throw .transition(
                "taps on notifications are not modelled for scene-based apps (LIFECYCLE §5); use activate",
                state: state, allowed: ["activate"])
        }
        switch source {
        case .banner:
            guard configuration.iosVersion.hasBanners else {
                throw .transition(
                    "banners exist from iOS 5.0; this device runs \(configuration.iosVersion), where every notification "
                        + "is an alert: tap it with source alert",
                    state: state, allowed: [NotificationSource.alert.rawValue])
            }
        case .alert:
            guard interruption == .alert else {
                throw .transition(
                    "no notification alert is showing (an alert interruption, or a bannerNotification before iOS 5.0)",
                    state: state, allowed: ["bannerNotification", "interruptionBegan"])
            }
            // Tapping the alert's button dismisses it.
            interruption = nil
        case .notificationCenter:
            guard notificationCenterOpen else {
                throw .transition(
                    "Notification Center is not open", state: state, allowed: ["notificationCenterOpened"])
            }
            // Picking an entry closes Notification Center; another app in front, inactive under it, goes
            // straight to the background (seed 000 §3.2).
            notificationCenterOpen = false
        }
        // A notification shows over the app switcher too; acting on it leaves the switcher.
        appSwitcherShown = nil
        // What the tap itself dismissed aside, nothing may still cover the screen (a lock, another
        // interruption, Notification Center over an alert); a refusal undoes the dismissal too.
        try checkForegroundAllowed(for: id)
        let userInfo = payload ?? .object([:])
        if state == .notRunning {
            if failsToLaunch(id) {
                reactivateFront()
                return
            }
            try ensureMemory(for: id)
            if let current = foregroundApp { leaveForeground(current) }
            // The notification is in the launch options; no didReceiveRemoteNotification follows.
            _ = launch(id, background: false, url: nil, options: ["remoteNotification": userInfo])
        } else if state.isForeground {
            notificationCallback(id, ["userInfo": userInfo])
            reactivateFront()
        } else {
            if let current = foregroundApp { leaveForeground(current) }
            resume(id, url: nil, notification: ["userInfo": userInfo])
        }
    }

    /// The newest remote-notification callback the delegate implements, in the state the app is in.
    mutating func notificationCallback(_ id: String, _ args: [String: JSONValue]) {
        let selectors = capabilities(of: id).remoteNotificationSelectors
        guard let selector = selectors.first(where: { implements(id, $0, args: args) }) else { return }
        invoke(id, selector, args: args)
    }
}
