/// The scene paths of LIFECYCLE §11.5–§11.11, built from the steps in `Device+SceneSteps.swift`.
extension Device {
    /// `activate`, `openURL`, `launch`, `switchApp` and `openScene` for a scene app (§11.5, §11.7, §11.8).
    mutating func bringScenesForward(_ id: String, url: OpenedURL?, session: String?) throws(Rejection) {
        let app = apps[existing: id]
        if app.state.isForeground {
            let front = app.sessions.filter { $0.state.isForeground }.map(\.id)
            guard let target = session ?? mostRecent(id, of: front) else { return }
            if front.contains(target) {
                if let url {
                    invokeScene(id, target, Selector.sceneOpenURLContexts, args: ["urlContexts": [url.context]])
                }
                return
            }
            try checkForegroundAllowed(for: id)
            replaceForeground(id, leaving: front, target: target, url: url)
            return
        }
        try checkForegroundAllowed(for: id)
        if let current = foregroundApp { leaveForeground(current) }
        if app.state == .notRunning {
            try ensureMemory(for: id)
            coldLaunch(id, session: session, url: url)
        } else if app.prewarmStage == .main {
            // Prewarmed up to `main`: the launch goes on from there (§12.1).
            wakePrewarmedAtMain(id)
            coldLaunch(id, session: session, url: url)
        } else {
            apps[existing: id].prewarmStage = nil
            resumeScenes(id, session: session, url: url)
        }
    }

    /// notRunning → background, the launch callbacks, pending discards, then the target scene connects,
    /// enters the foreground and activates, all under the launch watchdog (§11.5).
    private mutating func coldLaunch(_ id: String, session: String?, url: OpenedURL?) {
        launchWatchdog = time + Watchdog.launch
        defer { launchWatchdog = nil }
        guard launch(id, background: true, url: nil) else { return }
        let target = session ?? foregroundTargets(id, cold: true).first ?? createSession(id)
        guard connectScene(id, target, urls: url.map { [$0] } ?? []) else { return }
        guard enterForeground(id, scene: target) else { return }
        guard !screenCovered else { return }
        _ = activate(id, scene: target)
    }

    /// Whether something covers the screen: scenes in front stay inactive until it goes (§11.11).
    var screenCovered: Bool { locked || interruption != nil || notificationCenterOpen || appSwitcherOpen }

    /// A background or suspended scene app comes back: its queue first, then its scenes (§11.7).
    mutating func resumeScenes(_ id: String, session: String?, url: OpenedURL?) {
        if apps[existing: id].state == .suspended {
            setState(id, .background)
            deliverQueue(id)
        }
        var targets = session.map { [$0] } ?? foregroundTargets(id, cold: false)
        if targets.isEmpty { targets = [createSession(id)] }
        bringForward(id, targets: targets, urlTarget: url == nil ? nil : (session ?? mostRecent(id, of: targets)), url)
    }

    /// Connect what is unattached, enter the foreground, hand over the URL, activate: each step for every
    /// target in session order before the next.
    private mutating func bringForward(_ id: String, targets: [String], urlTarget: String?, _ url: OpenedURL?) {
        let connecting = targets.filter { target in
            apps[existing: id].sessions.first { $0.id == target }?.state == .unattached
        }
        for target in connecting {
            let urls = target == urlTarget ? url.map { [$0] } ?? [] : []
            guard connectScene(id, target, urls: urls) else { return }
        }
        for target in targets {
            guard enterForeground(id, scene: target) else { return }
        }
        if let url, let urlTarget, !connecting.contains(urlTarget) {
            let args: [String: JSONValue] = ["urlContexts": [url.context]]
            guard invokeScene(id, urlTarget, Selector.sceneOpenURLContexts, args: args) else { return }
        }
        // Unlocking under Notification Center brings the scenes back inactive, as reactivateFront does for §4.
        guard !screenCovered else { return }
        for target in targets {
            guard activate(id, scene: target) else { return }
        }
    }

    /// The app stays in front while another of its scenes takes the place of the front ones (§11.8, chosen).
    private mutating func replaceForeground(_ id: String, leaving: [String], target: String, url: OpenedURL?) {
        for scene in leaving where isScene(id, scene, in: .foregroundActive) {
            guard deactivate(id, scene: scene) else { return }
        }
        bringForward(id, targets: [target], urlTarget: url == nil ? nil : target, url)
        guard apps[existing: id].state.isRunning else { return }
        for scene in leaving {
            guard enterBackground(id, scene: scene) else { return }
        }
    }

    func isScene(_ id: String, _ session: String, in state: SceneState) -> Bool {
        apps[existing: id].sessions.first { $0.id == session }?.state == state
    }

    /// Home, switching, lock, an accepted call: every front scene deactivates, then each enters the background;
    /// they are the last foreground set (§11.11).
    mutating func leaveForegroundScenes(_ id: String) {
        let front = apps[existing: id].sessions.filter { $0.state.isForeground }.map(\.id)
        apps[existing: id].scenes.lastForegroundSet = front
        for scene in front where isScene(id, scene, in: .foregroundActive) {
            guard deactivate(id, scene: scene) else { return }
        }
        for scene in front {
            guard enterBackground(id, scene: scene) else { return }
        }
    }

    /// An overlay comes up: every active scene deactivates and stays inactive.
    mutating func deactivateScenes(_ id: String) {
        for scene in apps[existing: id].sessions where scene.state == .foregroundActive {
            guard deactivate(id, scene: scene.id) else { return }
        }
    }

    /// The overlay goes: every inactive scene activates again.
    mutating func reactivateScenes(_ id: String) {
        for scene in apps[existing: id].sessions where scene.state == .foregroundInactive {
            guard activate(id, scene: scene.id) else { return }
        }
    }
}
