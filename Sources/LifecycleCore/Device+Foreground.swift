/// A URL handed to an app, with where it came from.
struct OpenedURL {
    var url: String
    var source: String?
    var annotation: JSONValue?

    var args: [String: JSONValue] {
        var args: [String: JSONValue] = ["url": .string(url)]
        if let source { args["sourceApplication"] = .string(source) }
        if let annotation { args["annotation"] = annotation }
        return args
    }

    var scheme: String? {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return nil }
        return url[..<colon].lowercased()
    }
}

/// Launch, coming to the foreground and leaving it (LIFECYCLE §4).
extension Device {
    mutating func launchEvent(_ id: String, background: Bool, url: OpenedURL?) throws(Rejection) {
        let state = apps[existing: id].state
        guard background else {
            if state.isForeground, url == nil { return }  // already in front: legal, changes nothing
            try bringToForeground(id, url: url)
            return
        }
        if url != nil {
            throw .invalidField("url", "a background launch takes no url: launch in the foreground to open one")
        }
        guard state == .notRunning else { return }  // already in memory: nothing to launch
        if failsToLaunch(id) { return }
        guard capabilities(of: id).multitasking else {
            throw .transition(
                "the app cannot run in the background (it needs iOS 4.0, a multitasking device and no UIApplicationExitsOnSuspend)",
                state: state)
        }
        try ensureMemory(for: id)
        _ = launch(id, background: true, url: nil)
    }

    /// Brings an app in front, whatever its state: launches it, resumes it, or (already in front) hands it the URL.
    mutating func bringToForeground(_ id: String, url: OpenedURL?, session: String? = nil) throws(Rejection) {
        if let url { try checkScheme(url, of: id) }
        // The user acts in front: the passcode was entered, the first since a restart included (§12.2).
        if !locked { firstUnlock() }
        startFromOverlay(id)
        if usesScenes(id) {
            try bringScenesForward(id, url: url, session: session)
            reactivateFront()  // back from the app switcher
            return
        }
        let state = apps[existing: id].state
        if state.isForeground {
            if let url { urlCallback(id, url) }
            reactivateFront()  // back from the app switcher
            return
        }
        try checkForegroundAllowed(for: id)
        if state == .notRunning, failsToLaunch(id) { return }
        if let current = foregroundApp { leaveForeground(current) }
        if state == .notRunning {
            try ensureMemory(for: id)
            _ = launch(id, background: false, url: url)
        } else if apps[existing: id].prewarmStage == .main {
            // Prewarmed up to `main`: the launch goes on from there (§12.1).
            wakePrewarmedAtMain(id)
            _ = launch(id, background: false, url: url)
        } else {
            apps[existing: id].prewarmStage = nil
            resume(id, url: url)
        }
    }

    /// Starting an app from Notification Center or the app switcher, which then close (LIFECYCLE §5).
    /// Seed 000 §3.2: the user may start another app from Notification Center, and the app in front, inactive under
    /// it, goes straight to the background (`leaveForeground` resigns only an active app); seed 003 step 6:
    /// the same from the switcher. Under a lock or an interruption nothing closes, and
    /// `checkForegroundAllowed` refuses. The app already in front: its card in the switcher brings it back
    /// (the switcher closes); Notification Center stays, the app not being started.
    mutating func startFromOverlay(_ id: String) {
        guard notificationCenterOpen || appSwitcherOpen, !locked, interruption == nil else { return }
        // The app switcher's card of the app in front brings that app back (LIFECYCLE §5): it closes too.
        if appSwitcherOpen { appSwitcherShown = nil }
        guard !apps[existing: id].state.isForeground else { return }
        notificationCenterOpen = false
    }

    /// An app can come in front only on an unlocked device with nothing over the screen.
    func checkForegroundAllowed(for id: String?) throws(Rejection) {
        let state = id.flatMap { apps[$0]?.state }
        if locked { throw .transition("the device is locked: unlock it first", state: state, allowed: ["unlock"]) }
        if let interruption {
            throw .transition(
                "an interruption (\(interruption.rawValue)) is in progress: end it first", state: state,
                allowed: ["interruptionEnded"])
        }
        if notificationCenterOpen {
            throw .transition(
                "Notification Center is open: close it first", state: state, allowed: ["notificationCenterClosed"])
        }
    }

    func checkScheme(_ url: OpenedURL, of id: String) throws(Rejection) {
        let schemes = apps[existing: id].configuration.info.urlSchemes
        guard let scheme = url.scheme else {
            throw .invalidField("url", "url must start with a scheme, like mail://inbox")
        }
        // An app that declares no schemes takes any URL, so scripts need no Info.plist to try URLs.
        if !schemes.isEmpty, !schemes.contains(where: { $0.lowercased() == scheme }) {
            throw .transition(
                "the app does not declare the URL scheme \(scheme) in CFBundleURLSchemes",
                state: apps[existing: id].state,
                allowed: schemes)
        }
    }

    /// notRunning → inactive (or background): the launch callbacks, then (foreground) the URL and active.
    /// Returns false when the watchdog killed the app.
    mutating func launch(_ id: String, background: Bool, url: OpenedURL?, options: [String: JSONValue] = [:])
        -> Bool
    {
        let caps = capabilities(of: id)
        if failsToLaunch(id) { return false }
        apps[existing: id].termination = nil
        apps[existing: id].heardStatusBarHeight = nil  // a new process has heard nothing yet (§5)
        if !background, let image = launchImage(of: id, for: url) {
            record(id, .launchImage(image: image))
        }
        setState(id, background ? .background : .inactive)
        if background {
            apps[existing: id].backgroundSince = time
            apps[existing: id].budgetExhausted = false
        } else {
            foregroundApp = id
        }
        // A scene app's launch options are nil: URLs travel in the scene's connection options (§11.1).
        var launchOptions = caps.usesScenes ? [:] : options
        if let url, !caps.usesScenes { launchOptions.merge(url.args) { _, new in new } }
        var remaining = Watchdog.launch
        var proceed = true
        for selector in launchSelectors(caps, of: id) {
            // `applicationDidFinishLaunching:` takes no launch options.
            let args = selector == Selector.didFinishLaunching ? [:] : launchOptions
            // A launch the watchdog ends loses the preserved state too (Apple: a crash at launch deletes it).
            guard let spent = invoke(id, selector, args: args, limit: remaining) else {
                apps[existing: id].preservedState = nil
                return false
            }
            remaining -= spent
            if !returned(id, selector) { proceed = false }
            if selector == Selector.willFinishLaunchingWithOptions {
                // Restoration comes between willFinish and didFinish [S21].
                guard let restoring = restoreState(id, limit: remaining) else { return false }
                remaining -= restoring
            }
        }
        guard !background else { return caps.usesScenes ? discardPendingSessions(id) : true }
        showInCallStatusBar(to: id)
        // The URL callback only runs when the launch callbacks did not return false (LIFECYCLE §4).
        if let url, proceed { urlCallback(id, url) }
        setState(id, .active)
        invoke(id, Selector.didBecomeActive)
        return true
    }

    /// The launch image the system shows as it launches the app in front (LIFECYCLE §4; seed 000 §3.1): for a
    /// URL, the one named with a hyphen and the URL's scheme (`Default-mail`) when the bundle holds it, else
    /// `Default`; nil when the app lists neither.
    func launchImage(of id: String, for url: OpenedURL?) -> String? {
        guard let images = apps[existing: id].configuration.info.launchImages else { return nil }
        if let scheme = url?.scheme, let image = images.first(where: { $0.lowercased() == "default-\(scheme)" }) {
            return image
        }
        return images.contains("Default") ? "Default" : nil
    }

    /// The launch callbacks the app gets: its version's (LIFECYCLE §2), with `applicationDidFinishLaunching:` in
    /// place of `application:didFinishLaunchingWithOptions:` when the delegate implements only the older one
    /// (seed 003 step 2).
    func launchSelectors(_ caps: Capabilities, of id: String) -> [String] {
        // Most delegates implement every method: then nothing is looked up.
        guard !apps[existing: id].delegate.notImplemented.isEmpty,
            !apps[existing: id].delegate.implements(Selector.didFinishLaunchingWithOptions),
            apps[existing: id].delegate.implements(Selector.didFinishLaunching),
            let index = caps.launchSelectors.firstIndex(of: Selector.didFinishLaunchingWithOptions)
        else { return caps.launchSelectors }
        var selectors = caps.launchSelectors
        selectors[index] = Selector.didFinishLaunching
        return selectors
    }

    /// background or suspended → inactive → active (LIFECYCLE §4, back to the foreground).
    mutating func resume(_ id: String, url: OpenedURL?, notification: [String: JSONValue]? = nil) {
        if usesScenes(id) {
            resumeScenes(id, session: nil, url: url)
            return
        }
        if apps[existing: id].state == .suspended { setState(id, .background) }
        // Still in the background during the call: drawing with the GPU there ends the app (LIFECYCLE §6).
        guard invoke(id, Selector.willEnterForeground) != nil else { return }
        deliverQueue(id)
        reopenAccessorySession(id)
        setState(id, .inactive)
        foregroundApp = id
        apps[existing: id].backgroundSince = nil
        apps[existing: id].budgetExhausted = false
        apps[existing: id].idleSince = nil
        showInCallStatusBar(to: id)
        if let url { urlCallback(id, url) }
        if let notification { notificationCallback(id, notification) }
        reactivateFront()
    }

    /// inactive → active: `applicationDidBecomeActive:`, then the redraw coalesced in the background (LIFECYCLE §8).
    mutating func becomeActive(_ id: String) {
        if usesScenes(id) {
            reactivateScenes(id)
            return
        }
        setState(id, .active)
        invoke(id, Selector.didBecomeActive)
        let redraws = apps[existing: id].pendingRedraws
        if redraws > 0, apps[existing: id].state == .active {
            apps[existing: id].pendingRedraws = 0
            record(id, .runLoop(event: .redraw, delivered: true, coalesced: redraws))
        }
    }

    /// The newest URL callback the delegate implements, in the inactive or active state.
    mutating func urlCallback(_ id: String, _ url: OpenedURL) {
        let args = url.args
        guard let selector = capabilities(of: id).urlSelectors.first(where: { implements(id, $0, args: args) }) else {
            return
        }
        invoke(id, selector, args: url.args)
    }

    /// Home, or leaving for another app (LIFECYCLE §4).
    mutating func leaveForeground(_ id: String) {
        let caps = capabilities(of: id)
        foregroundApp = nil
        if caps.usesScenes {
            leaveForegroundScenes(id)
        } else if caps.multitasking {
            if apps[existing: id].state == .active {
                invoke(id, Selector.willResignActive)
                setState(id, .inactive)
            }
            enterBackground(id)
        } else {
            // Before iOS 4 (seed 003 step 6) Home goes straight to applicationWillTerminate:.
            if caps.version >= Version(4, 0), apps[existing: id].state == .active {
                invoke(id, Selector.willResignActive)
                setState(id, .inactive)
            }
            if caps.quitsThroughBackground {
                // Built before 4.0, it enters applicationDidEnterBackground: and is closed at once (seed 003).
                setState(id, .background)
                guard invoke(id, Selector.didEnterBackground, limit: Watchdog.didEnterBackground) != nil else { return }
            }
            guard cancelAlertsAtQuit(id) else { return }
            terminateRunning(id, .exited)
        }
    }

    /// inactive → background: `applicationDidEnterBackground:` (5 s watchdog); the budget starts.
    mutating func enterBackground(_ id: String) {
        setState(id, .background)
        apps[existing: id].backgroundSince = time
        apps[existing: id].budgetExhausted = false
        guard invoke(id, Selector.didEnterBackground, limit: Watchdog.didEnterBackground) != nil,
            preserveState(id)
        else { return }
        takeSnapshot(id)
        closeAccessorySession(id)
    }

    mutating func homeButton() {
        guard !locked else { return }  // Home on the lock screen only lights it
        if notificationCenterOpen || appSwitcherOpen {
            // Home first closes Notification Center or the app switcher (chosen for the switcher).
            notificationCenterOpen = false
            appSwitcherShown = nil
            if let front = foregroundApp, apps[existing: front].state == .inactive, interruption == nil {
                becomeActive(front)
            }
            return
        }
        if let front = foregroundApp { leaveForeground(front) }
    }
}
