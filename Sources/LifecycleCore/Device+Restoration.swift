/// State preservation and restoration (LIFECYCLE §4, §11.9): for apps that declare `restorableState`, from iOS 6.
extension Device {
    /// After the background callback returns: `application:shouldSaveApplicationState:` and, when it returns
    /// YES, `application:willEncodeRestorableStateWithCoder:`; the system keeps what the app encoded.
    /// Returns false when the watchdog killed the app.
    mutating func preserveState(_ id: String) -> Bool {
        guard let state = apps[existing: id].configuration.restorableState, capabilities(of: id).hasStateRestoration,
            implements(id, Selector.shouldSaveApplicationState)
        else { return true }
        guard invoke(id, Selector.shouldSaveApplicationState) != nil else { return false }
        guard returned(id, Selector.shouldSaveApplicationState) else { return true }
        guard invoke(id, Selector.willEncodeRestorableState, args: ["state": state]) != nil else { return false }
        apps[existing: id].preservedState = PreservedState(state: state, savedAt: time)
        return true
    }

    /// At launch, between `application:willFinishLaunchingWithOptions:` and `didFinishLaunching` [S21]:
    /// `application:shouldRestoreApplicationState:` and, when it returns YES,
    /// `application:didDecodeRestorableStateWithCoder:` with what was kept. The state is offered once.
    /// Returns the seconds spent, or nil when the watchdog (`limit`) killed the app.
    mutating func restoreState(_ id: String, limit: Double) -> Double? {
        guard let preserved = apps[existing: id].preservedState else { return 0 }
        apps[existing: id].preservedState = nil
        guard capabilities(of: id).hasStateRestoration,
            implements(id, Selector.shouldRestoreApplicationState)
        else { return 0 }
        guard let asked = invoke(id, Selector.shouldRestoreApplicationState, limit: limit) else { return nil }
        guard returned(id, Selector.shouldRestoreApplicationState) else { return asked }
        guard let decoded = invoke(id, Selector.didDecodeRestorableState, args: preserved.args, limit: limit - asked)
        else { return nil }
        return asked + decoded
    }

    /// After `sceneDidEnterBackground:`: the scene delegate's `stateRestorationActivity(for:)`; what it returns
    /// (nil when `returns` says false) is kept with the session. Returns false when the watchdog killed the app.
    mutating func preserveSceneState(_ id: String, _ session: String) -> Bool {
        guard let state = apps[existing: id].configuration.restorableState,
            let index = apps[existing: id].sessions.firstIndex(where: { $0.id == session }),
            apps[existing: id].sessions[index].hasDelegate,
            implements(id, Selector.sceneStateRestorationActivity, session: session)
        else { return true }
        guard invokeScene(id, session, Selector.sceneStateRestorationActivity) else { return false }
        let kept = returned(id, Selector.sceneStateRestorationActivity)
        if let index = apps[existing: id].sessions.firstIndex(where: { $0.id == session }) {
            apps[existing: id].scenes.sessions[index].restorationActivity =
                kept ? PreservedState(state: state, savedAt: time) : nil
        }
        return true
    }

    /// The activity a connecting session hands to `scene:willConnectToSession:options:`, offered once.
    mutating func takeRestorationActivity(_ id: String, _ session: String) -> PreservedState? {
        guard let index = apps[existing: id].sessions.firstIndex(where: { $0.id == session }) else { return nil }
        defer { apps[existing: id].scenes.sessions[index].restorationActivity = nil }
        return apps[existing: id].sessions[index].restorationActivity
    }
}
