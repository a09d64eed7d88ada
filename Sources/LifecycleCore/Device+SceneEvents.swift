/// The scene events and the `session` field, with their errors in the order API.md gives them.
extension Device {
    /// 409 for an app without scenes: `openScene`, `closeScene` and `disconnectScene` need them.
    func requireScenes(_ id: String, for type: String) throws(Rejection) {
        guard !usesScenes(id) else { return }
        // Built with the iOS 27 SDK, a manifest without configurations is not adopted (§11.1).
        let needs =
            capabilities(of: id).sceneLifecycleRequired
            ? "with the iOS 27 SDK on iOS 27, info.sceneManifest listing at least one configuration"
            : "iOS 13 or later and info.sceneManifest"
        var rejection = Rejection.transition(
            "\(type) needs the scene life cycle: \(needs)", state: apps[existing: id].state)
        rejection.lifecycle = "appDelegate"
        throw rejection
    }

    /// 400 for a `session` an app cannot have: no scenes, or no such session (discarded or waiting to be).
    func checkSession(_ session: String?, of id: String) throws(Rejection) {
        guard let session else { return }
        let app = apps[existing: id]
        guard usesScenes(id) else {
            throw .invalidField("session", "session names a scene; app \(id) does not use scenes")
        }
        let live = app.sessions.filter { !$0.pendingDiscard }.map(\.id)
        guard live.contains(session) else {
            throw .invalidField("session", "app \(id) has no session \(session)", allowed: live)
        }
    }

    private func sceneRejection(_ detail: String, _ id: String, session: String? = nil) -> Rejection {
        var rejection = Rejection.transition(detail, state: apps[existing: id].state)
        if let session { rejection.sceneState = apps[existing: id].sessions.first { $0.id == session }?.state }
        return rejection
    }

    mutating func activateEvent(_ id: String, session: String?) throws(Rejection) {
        try checkSession(session, of: id)
        try bringToForeground(id, url: nil, session: session)
    }

    mutating func openURLEvent(_ id: String, _ url: OpenedURL, session: String?) throws(Rejection) {
        try checkSession(session, of: id)
        try checkScheme(url, of: id)
        try bringToForeground(id, url: url, session: session)
    }

    mutating func openScene(
        _ id: String, session name: String?, url: OpenedURL?, placement: ScenePlacement
    ) throws(Rejection) {
        try requireScenes(id, for: "openScene")
        let app = apps[existing: id]
        if let name, app.scenes.isTaken(name) {
            // A discarded id stays taken, so `?session=` never mixes two sessions (chosen).
            throw Rejection(
                code: .alreadyExists, detail: "app \(id) has or had a session \(name); name the new one otherwise",
                field: "session")
        }
        let live = app.sessions.filter { !$0.pendingDiscard }.count
        if live >= SceneBook.maxSessions {
            throw sceneRejection(
                "app \(id) has \(live) scene sessions, the most an app may have; close one (closeScene) first", id)
        }
        if name != nil, app.scenes.retired.count >= SceneBook.maxRetiredNames {
            throw sceneRejection(
                "app \(id) has retired \(SceneBook.maxRetiredNames) session names, each kept for good; let the "
                    + "daemon name new sessions (omit session), or delete and create the app again", id)
        }
        let caps = capabilities(of: app)
        if !caps.multipleScenes, app.sessions.contains(where: { !$0.pendingDiscard }) {
            throw sceneRejection(
                "a second scene needs info.sceneManifest.supportsMultipleScenes and a device with idiom pad", id)
        }
        try checkForegroundAllowed(for: id)
        if let url { try checkScheme(url, of: id) }
        let session = createSession(id, named: name)
        if app.state.isForeground, placement == .split {
            // Split View: the new scene joins the front ones; the app stays active, so no app-level notification.
            guard connectScene(id, session, urls: url.map { [$0] } ?? []) else { return }
            guard enterForeground(id, scene: session) else { return }
            _ = activate(id, scene: session)
            return
        }
        try bringScenesForward(id, url: url, session: session)
    }

    /// The user closes one window (§11.9); closing the last session is `forceQuit` (§11.10).
    mutating func closeScene(_ id: String, session: String) throws(Rejection) {
        try requireScenes(id, for: "closeScene")
        try checkSession(session, of: id)
        try checkForegroundAllowed(for: id)
        let live = apps[existing: id].sessions.filter { !$0.pendingDiscard }
        if live.count == 1 {
            forceQuit(id)
            return
        }
        switch apps[existing: id].state {
        case .notRunning:
            if let index = apps[existing: id].sessions.firstIndex(where: { $0.id == session }) {
                apps[existing: id].scenes.sessions[index].pendingDiscard = true
                quietChange = true
            }
            return
        case .suspended:
            wakeInBackground(id)  // chosen: the app runs to hear about it
        case .active, .inactive, .background:
            break
        }
        if isScene(id, session, in: .foregroundActive) {
            guard deactivate(id, scene: session) else { return }
        }
        if isScene(id, session, in: .foregroundInactive) {
            guard enterBackground(id, scene: session) else { return }
        }
        if isScene(id, session, in: .background) {
            guard disconnect(id, scene: session) else { return }
        }
        discard(id, [session])
        invoke(id, Selector.didDiscardSceneSessions, args: ["sessions": [.string(session)]])
    }

    /// The system reclaims a background scene of a living process; the session stays (§11.9).
    mutating func disconnectSceneEvent(_ id: String, session: String) throws(Rejection) {
        try requireScenes(id, for: "disconnectScene")
        try checkSession(session, of: id)
        guard apps[existing: id].state != .notRunning else {
            throw sceneRejection("the app is not running: its scenes are already unattached", id, session: session)
        }
        guard isScene(id, session, in: .background) else {
            throw sceneRejection("the system disconnects only a background scene", id, session: session)
        }
        wakeInBackground(id)
        _ = disconnect(id, scene: session)
    }
}
