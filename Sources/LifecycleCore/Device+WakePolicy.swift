/// The wake policy (LIFECYCLE §6): one rule decides whether the system wakes or launches an app in the
/// background for a fetch or a silent push; the settings it reads, and the notifications their changes post.
extension Device {
    /// Asks the policy for `wake` of app `id`, which is not in front: a refusal is recorded as a `wakeRefused`
    /// entry and answers false; an allowed silent push is counted against the app's budget.
    mutating func admitWake(_ id: String, _ wake: Wake) -> Bool {
        if let reason = wakeRefusal(id, wake) {
            record(id, .wakeRefused(wake: wake, reason: reason))
            return false
        }
        if wake == .silentPush, countsSilentPushes {
            let recent = (apps[existing: id].silentPushWakes ?? []).filter { $0 > time - WakePolicy.budgetWindow }
            apps[existing: id].silentPushWakes = Array((recent + [time]).suffix(WakePolicy.silentPushesPerHour))
        }
        return true
    }

    /// Why the policy refuses `wake` of app `id` now; nil: it allows it. The first reason that holds, in the
    /// order of `WakeRefusal`.
    func wakeRefusal(_ id: String, _ wake: Wake) -> WakeRefusal? {
        let app = apps[existing: id]
        if app.stoppedByForceQuit == true { return .forceQuit }
        // (chosen) Only the force-quit stops a transfer's wake: Apple names no other rule for background sessions.
        if wake == .backgroundURLSession { return nil }
        if let denial = refreshDenial(of: app) { return denial }
        if wake == .silentPush, countsSilentPushes {
            let recent = (app.silentPushWakes ?? []).filter { $0 > time - WakePolicy.budgetWindow }
            if recent.count >= WakePolicy.silentPushesPerHour { return .silentPushBudget }
        }
        return nil
    }

    /// `UIApplication.backgroundRefreshStatus` of `app`; nil before iOS 7, which has no such property.
    public func backgroundRefreshStatus(of app: AppInstance) -> BackgroundRefreshStatus? {
        guard configuration.iosVersion.hasBackgroundAppRefresh else { return nil }
        switch refreshDenial(of: app) {
        case .backgroundAppRefreshRestricted: return .restricted
        case nil: return .available
        default: return .denied
        }
    }

    /// Why Background App Refresh is not available to `app`: the device's switch, the app's, Low Power Mode.
    func refreshDenial(of app: AppInstance) -> WakeRefusal? {
        let version = configuration.iosVersion
        guard version.hasBackgroundAppRefresh else { return nil }
        switch setting(.backgroundAppRefresh) {
        case "restricted": return .backgroundAppRefreshRestricted
        case "off": return .backgroundAppRefreshOff
        default: break
        }
        if app.backgroundRefreshSwitchOff == true { return .appBackgroundAppRefreshOff }
        if version.hasLowPowerMode, setting(.lowPowerMode) == true { return .lowPowerMode }
        return nil
    }

    /// The silent-push budget holds from iOS 13 (chosen: Apple described it with the background-push rules of 2019).
    private var countsSilentPushes: Bool { configuration.iosVersion >= Version(13, 0) }

    /// A setting's value; a device saved before the kind existed has its initial value.
    func setting(_ kind: ChangeKind) -> JSONValue? { settings[kind.rawValue] ?? kind.initialValue }

    /// The user swiped app `id` away: from iOS 7 no fetch or silent push wakes it until the user launches it or
    /// the device restarts. An app that never ran has no card in the switcher: nothing to swipe.
    mutating func stopWakesAfterForceQuit(_ id: String) {
        guard configuration.iosVersion.hasBackgroundAppRefresh, apps[existing: id].stoppedByForceQuit != true,
            apps[existing: id].termination != nil
        else { return }
        apps[existing: id].stoppedByForceQuit = true
        quietChange = true
    }

    /// A change of the device's Background App Refresh switch or Low Power Mode: Low Power Mode posts
    /// `NSProcessInfoPowerStateDidChangeNotification` (iOS 9 and later), then every app whose
    /// `backgroundRefreshStatus` changed gets `UIApplicationBackgroundRefreshStatusDidChangeNotification`, at once
    /// when running, queued when suspended (LIFECYCLE §7).
    mutating func changeWakeSetting(_ kind: ChangeKind, value: JSONValue) {
        let previous = setting(kind)
        guard value != previous else { return }
        let before = appOrder.map { backgroundRefreshStatus(of: apps[existing: $0]) }
        settings[kind.rawValue] = value
        if kind == .lowPowerMode, configuration.iosVersion.hasLowPowerMode {
            for id in appOrder {
                notify(
                    id, kind: kind.rawValue, name: kind.notificationName(for: value), value: value, previous: previous)
            }
        }
        for (id, old) in zip(appOrder, before) {
            let new = backgroundRefreshStatus(of: apps[existing: id])
            if let new, let old, new != old {
                notify(
                    id, kind: "backgroundRefreshStatus", name: WakePolicy.statusNotification,
                    value: .string(new.rawValue), previous: .string(old.rawValue))
            }
        }
    }

    /// The user turns app `id`'s own Background App Refresh switch in Settings (iOS 7 and later).
    mutating func backgroundAppRefreshSwitch(_ id: String, enabled: Bool) throws(Rejection) {
        guard configuration.iosVersion.hasBackgroundAppRefresh else {
            throw .transition(
                "Background App Refresh exists from iOS 7.0; this device runs \(configuration.iosVersion)",
                state: apps[existing: id].state)
        }
        guard (apps[existing: id].backgroundRefreshSwitchOff != true) != enabled else { return }
        let old = backgroundRefreshStatus(of: apps[existing: id])
        apps[existing: id].backgroundRefreshSwitchOff = enabled ? nil : true
        quietChange = true
        let new = backgroundRefreshStatus(of: apps[existing: id])
        if let old, let new, old != new {
            notify(
                id, kind: "backgroundRefreshStatus", name: WakePolicy.statusNotification,
                value: .string(new.rawValue), previous: .string(old.rawValue))
        }
    }

    /// Posts to a running app, queues for a suspended one, tells a not-running one nothing.
    private mutating func notify(_ id: String, kind: String, name: String, value: JSONValue, previous: JSONValue?) {
        switch apps[existing: id].state {
        case .inactive, .active, .background:
            post(id, name, ["value": value])
        case .suspended:
            enqueue(id, kind: kind, name: name, userInfo: ["value": value], value: value, previous: previous)
        case .notRunning:
            break
        }
    }
}

extension Version {
    /// Background fetch, silent pushes and the Background App Refresh switch exist from 7.0.
    var hasBackgroundAppRefresh: Bool { self >= Version(7, 0) }

    /// Low Power Mode exists from 9.0.
    var hasLowPowerMode: Bool { self >= Version(9, 0) }
}
