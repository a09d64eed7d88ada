/// The six scene steps every scene path is built from, and the aggregate app state (LIFECYCLE §11.3, §11.4).
///
/// Each step returns false when a callback ran past its watchdog and the process ended.
extension Device {
    /// Moves a scene and records it; the app's state follows at once (§11.3) unless `recompute` is false.
    mutating func setSceneState(_ id: String, _ session: String, _ state: SceneState, recompute: Bool = true) {
        guard let index = apps[existing: id].sessions.firstIndex(where: { $0.id == session }) else { return }
        let from = apps[existing: id].sessions[index].state
        guard from != state else { return }
        apps[existing: id].scenes.sessions[index].state = state
        apps[existing: id].scenes.sessions[index].stateSince = time
        apps[existing: id].scenes.sessions[index].backgroundSince = state == .background ? time : nil
        record(id, .sceneState(from: from, to: state), session: session)
        if recompute { recomputeAppState(id) }
    }

    /// The app's state is its most active scene's; a running app with no scene in front is in the background.
    mutating func recomputeAppState(_ id: String) {
        let app = apps[existing: id]
        guard app.state.isRunning else { return }
        let states = app.sessions.map(\.state)
        let aggregate: AppState =
            states.contains(.foregroundActive)
            ? .active : states.contains(.foregroundInactive) ? .inactive : .background
        guard aggregate != app.state else { return }
        setState(id, aggregate)
        if aggregate.isForeground, !app.state.isForeground {
            foregroundApp = id
            apps[existing: id].backgroundSince = nil
            apps[existing: id].budgetExhausted = false
            apps[existing: id].idleSince = nil
        } else if !aggregate.isForeground {
            if foregroundApp == id { foregroundApp = nil }
            apps[existing: id].backgroundSince = time
            apps[existing: id].budgetExhausted = false
        }
    }

    /// Seconds left before the launch watchdog of a foreground scene launch fires; nil outside one.
    var launchLimit: Double? { launchWatchdog.map { max(0, $0 - time) } }

    /// A scene-delegate callback (if the scene has a delegate that implements it), then its UIScene notification.
    @discardableResult
    mutating func invokeScene(
        _ id: String, _ session: String, _ selector: String, args: [String: JSONValue] = [:], limit: Double? = nil
    ) -> Bool {
        let app = apps[existing: id]
        guard let scene = app.sessions.first(where: { $0.id == session }) else { return true }
        let limits = [limit, launchLimit].compactMap { $0 }
        let live =
            scene.hasDelegate && app.storedConfiguration.value.delegate.isLive
            ? takeLive(id, selector, args: args, session: session, limit: limits.min()) : nil
        if scene.hasDelegate, live?.implemented ?? app.delegate.implements(selector) {
            let duration = live?.appliedDuration ?? app.delegate.duration(of: selector)
            record(
                id, .callback(selector: selector, state: app.state, args: args, duration: duration), session: session,
                sceneState: scene.state)
            if let live {
                guard performActions(id, inside: selector, live.actions) else { return false }
            } else if app.delegate.actions != nil, !performActions(id, inside: selector) {
                return false
            }
            if let limit = Self.watchdog(limits.min(), duration: duration, live) {
                time += limit
                end(id, .watchdog, notified: false)
                return false
            }
            time += duration
        }
        if let name = Selector.notification(after: selector) {
            record(id, .notification(name: name, userInfo: [:], queuedAt: nil, coalesced: nil), session: session)
        }
        return true
    }

    /// unattached → background: configurationForConnecting for a new session, then willConnect.
    mutating func connectScene(_ id: String, _ session: String, urls: [OpenedURL]) -> Bool {
        guard let index = apps[existing: id].sessions.firstIndex(where: { $0.id == session }) else { return true }
        let scene = apps[existing: id].sessions[index]
        let contexts = JSONValue.array(urls.map { $0.context })
        if !scene.configured {
            apps[existing: id].scenes.sessions[index].configured = true
            let args: [String: JSONValue] = [
                "session": .string(session), "role": .string(scene.role), "urlContexts": contexts,
            ]
            guard invoke(id, Selector.configurationForConnecting, args: args, limit: launchLimit) != nil else {
                return false
            }
        }
        var args: [String: JSONValue] = [
            "session": .string(session), "configuration": scene.configuration.map(JSONValue.string) ?? .null,
            "urlContexts": contexts,
        ]
        if let activity = takeRestorationActivity(id, session) {
            args["stateRestorationActivity"] = .object(activity.args)
        }
        guard invokeScene(id, session, Selector.sceneWillConnect, args: args) else { return false }
        setSceneState(id, session, .background)
        return true
    }

    /// background → foregroundInactive; the app-level notification only when the app leaves the background.
    mutating func enterForeground(_ id: String, scene session: String) -> Bool {
        guard invokeScene(id, session, Selector.sceneWillEnterForeground) else { return false }
        if apps[existing: id].state == .background {
            post(id, Selector.notification(after: Selector.willEnterForeground)!)
            reopenAccessorySession(id)
        }
        setSceneState(id, session, .foregroundInactive)
        return true
    }

    /// foregroundInactive → foregroundActive; the app-level notification and the coalesced redraw when the
    /// app becomes active.
    mutating func activate(_ id: String, scene session: String) -> Bool {
        let before = apps[existing: id].state
        apps[existing: id].scenes.activations += 1
        let number = apps[existing: id].scenes.activations
        if let index = apps[existing: id].sessions.firstIndex(where: { $0.id == session }) {
            apps[existing: id].scenes.sessions[index].activation = number
        }
        setSceneState(id, session, .foregroundActive)
        guard invokeScene(id, session, Selector.sceneDidBecomeActive) else { return false }
        if before != .active, apps[existing: id].state == .active {
            post(id, Selector.notification(after: Selector.didBecomeActive)!)
            let redraws = apps[existing: id].pendingRedraws
            if redraws > 0 {
                apps[existing: id].pendingRedraws = 0
                record(id, .runLoop(event: .redraw, delivered: true, coalesced: redraws))
            }
        }
        return true
    }

    /// foregroundActive → foregroundInactive; the app-level notification when no other scene stays active.
    mutating func deactivate(_ id: String, scene session: String) -> Bool {
        guard invokeScene(id, session, Selector.sceneWillResignActive) else { return false }
        let othersActive = apps[existing: id].sessions.contains { $0.id != session && $0.state == .foregroundActive }
        if !othersActive { post(id, Selector.notification(after: Selector.willResignActive)!) }
        setSceneState(id, session, .foregroundInactive)
        return true
    }

    /// foregroundInactive → background (5 s watchdog); the app-level notification when the last foreground
    /// scene leaves.
    mutating func enterBackground(_ id: String, scene session: String) -> Bool {
        let before = apps[existing: id].state
        setSceneState(id, session, .background)
        let limit = Watchdog.didEnterBackground
        guard invokeScene(id, session, Selector.sceneDidEnterBackground, limit: limit),
            preserveSceneState(id, session)
        else { return false }
        takeSnapshot(id, session: session)
        if before != .background, apps[existing: id].state == .background {
            post(id, Selector.notification(after: Selector.didEnterBackground)!)
            closeAccessorySession(id)
        }
        return true
    }

    /// → unattached: the session stays unless the caller discards it.
    mutating func disconnect(_ id: String, scene session: String, recompute: Bool = true) -> Bool {
        setSceneState(id, session, .unattached, recompute: recompute)
        return invokeScene(id, session, Selector.sceneDidDisconnect)
    }

    /// `application:didDiscardSceneSessions:` for sessions closed while the app was not running (§11.9).
    mutating func discardPendingSessions(_ id: String) -> Bool {
        let pending = apps[existing: id].sessions.filter(\.pendingDiscard).map(\.id)
        guard !pending.isEmpty else { return true }
        discard(id, pending)
        let args: [String: JSONValue] = ["sessions": .array(pending.map(JSONValue.string))]
        return invoke(id, Selector.didDiscardSceneSessions, args: args, limit: launchLimit) != nil
    }

    /// Removes sessions for good.
    mutating func discard(_ id: String, _ sessions: [String]) {
        apps[existing: id].scenes.sessions.removeAll { sessions.contains($0.id) }
        let book = apps[existing: id].scenes
        apps[existing: id].scenes.retired += sessions.filter { !book.isServerMade($0) }
        apps[existing: id].scenes.lastForegroundSet.removeAll { sessions.contains($0) }
    }
}

extension OpenedURL {
    /// A `UIOpenURLContext`: the URL and where it came from.
    var context: JSONValue {
        var members: [String: JSONValue] = ["url": .string(url)]
        if let source { members["sourceApplication"] = .string(source) }
        return .object(members)
    }
}
