/// How far a prewarm runs an app's launch (LIFECYCLE §12.1).
public enum PrewarmStage: String, Sendable, Codable, CaseIterable {
    /// The process runs up to `UIApplicationMain` and the app delegate is made; no delegate method runs.
    case main
    /// The launch callbacks run too (`application:willFinishLaunchingWithOptions:`,
    /// `application:didFinishLaunchingWithOptions:`), in the background; no scene connects.
    case didFinishLaunching
}

/// Prewarming and the first unlock after a restart (LIFECYCLE §12, iOS 15 and later).
extension Device {
    /// The first iOS that prewarms apps.
    static let prewarmingVersion = Version(15, 0)

    /// The system prewarms a not-running app: its launch runs as far as `stage` (absent: the observed rule,
    /// `didFinishLaunching` for a scene app, `main` otherwise), in the background, and the process is suspended
    /// at once; it stays prewarmed until its launch goes on (§12.1).
    mutating func prewarm(_ id: String, stage requested: PrewarmStage?) throws(Rejection) {
        let state = apps[existing: id].state
        guard configuration.iosVersion >= Self.prewarmingVersion else {
            throw .transition(
                "the system prewarms apps from iOS 15.0; device \(self.id) runs iOS \(configuration.iosVersion)",
                state: state)
        }
        guard state == .notRunning else {
            throw .transition(
                "only an app that is not running is prewarmed", state: state, allowed: [AppState.notRunning.rawValue])
        }
        guard capabilities(of: id).multitasking else {
            throw .transition("the app cannot run in the background (UIApplicationExitsOnSuspend)", state: state)
        }
        if failsToLaunch(id, foreground: false) { return }
        try ensureMemory(for: id)
        let stage = requested ?? (usesScenes(id) ? .didFinishLaunching : .main)
        switch stage {
        case .main:
            apps[existing: id].termination = nil
            setState(id, .background)
        case .didFinishLaunching:
            guard launch(id, background: true, url: nil) else { return }
        }
        apps[existing: id].prewarmStage = stage
        setState(id, .suspended)
        apps[existing: id].idleSince = nil
        releaseAtSuspension(id)
    }

    /// A prewarmed app that stopped at `main` runs again: out of suspension, its queue (§7), and the prewarm
    /// is over; the caller then runs the launch callbacks, as a launch from `notRunning` would (§12.1).
    mutating func wakePrewarmedAtMain(_ id: String) {
        setState(id, .background)
        apps[existing: id].idleSince = nil
        apps[existing: id].prewarmStage = nil
        deliverQueue(id)
    }

    /// The first unlock since the device restarted, if it is still to come: protected data becomes available
    /// (§12.2). `unlock` and the user's first launch in front end the wait.
    mutating func firstUnlock() {
        guard firstUnlockPending == true else { return }
        firstUnlockPending = nil
        if !(locked && configuration.passcode) { protectedDataChanged(available: true) }
    }
}
