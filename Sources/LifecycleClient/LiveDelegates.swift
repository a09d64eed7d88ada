public import LifecycleCore

/// `UIApplicationDelegate` for a live app (docs/LIFECYCLE.md §13): each method is the selector of the same
/// name, called synchronously on the device's queue as the simulated app gets it. A method you do not write is
/// "not implemented" (the default calls `application.notImplemented()`): no callback entry, as for a delegate
/// without it. What a `BOOL` method returns is the answer's `returns`; the simulated time a callback takes is
/// what it `spend`s.
public protocol LiveApplicationDelegate: AnyObject {
    func application(_ application: LiveApplication, willFinishLaunchingWithOptions options: [String: JSONValue])
        -> Bool
    func application(_ application: LiveApplication, didFinishLaunchingWithOptions options: [String: JSONValue])
        -> Bool
    func applicationDidBecomeActive(_ application: LiveApplication)
    func applicationWillResignActive(_ application: LiveApplication)
    func applicationDidEnterBackground(_ application: LiveApplication)
    func applicationWillEnterForeground(_ application: LiveApplication)
    func applicationWillTerminate(_ application: LiveApplication)
    func applicationDidReceiveMemoryWarning(_ application: LiveApplication)
    /// `application:openURL:options:` (and the older URL methods, which the daemon offers first where the
    /// device's version has no newer one): `url` and the options the daemon gives.
    func application(_ application: LiveApplication, open url: String, options: [String: JSONValue]) -> Bool
    func application(_ application: LiveApplication, shouldSaveApplicationState coder: [String: JSONValue]) -> Bool
    /// `application:willEncodeRestorableStateWithCoder:`: `state` is what the app's `restorableState` encodes.
    func application(_ application: LiveApplication, willEncodeRestorableState state: JSONValue)
    func application(_ application: LiveApplication, shouldRestoreApplicationState coder: [String: JSONValue])
        -> Bool
    /// `application:didDecodeRestorableStateWithCoder:`: what was kept, and when it was saved.
    func application(_ application: LiveApplication, didDecodeRestorableState state: JSONValue, savedAt: Double)
    func application(_ application: LiveApplication, performFetchWithCompletionHandler arguments: [String: JSONValue])
    func application(_ application: LiveApplication, didReceiveRemoteNotification userInfo: JSONValue?)
    func application(_ application: LiveApplication, didDiscardSceneSessions sessions: [String])
    func applicationProtectedDataWillBecomeUnavailable(_ application: LiveApplication)
    func applicationProtectedDataDidBecomeAvailable(_ application: LiveApplication)
    func applicationSignificantTimeChange(_ application: LiveApplication)
}

extension LiveApplicationDelegate {
    public func application(
        _ application: LiveApplication, willFinishLaunchingWithOptions options: [String: JSONValue]
    ) -> Bool {
        application.notImplemented()
        return true
    }
    public func application(
        _ application: LiveApplication, didFinishLaunchingWithOptions options: [String: JSONValue]
    ) -> Bool {
        application.notImplemented()
        return true
    }
    public func applicationDidBecomeActive(_ application: LiveApplication) { application.notImplemented() }
    public func applicationWillResignActive(_ application: LiveApplication) { application.notImplemented() }
    public func applicationDidEnterBackground(_ application: LiveApplication) { application.notImplemented() }
    public func applicationWillEnterForeground(_ application: LiveApplication) { application.notImplemented() }
    public func applicationWillTerminate(_ application: LiveApplication) { application.notImplemented() }
    public func applicationDidReceiveMemoryWarning(_ application: LiveApplication) { application.notImplemented() }
    public func application(_ application: LiveApplication, open url: String, options: [String: JSONValue]) -> Bool {
        application.notImplemented()
        return true
    }
    public func application(
        _ application: LiveApplication, shouldSaveApplicationState coder: [String: JSONValue]
    ) -> Bool {
        application.notImplemented()
        return true
    }
    public func application(_ application: LiveApplication, willEncodeRestorableState state: JSONValue) {
        application.notImplemented()
    }
    public func application(
        _ application: LiveApplication, shouldRestoreApplicationState coder: [String: JSONValue]
    ) -> Bool {
        application.notImplemented()
        return true
    }
    public func application(_ application: LiveApplication, didDecodeRestorableState state: JSONValue, savedAt: Double)
    {
        application.notImplemented()
    }
    public func application(
        _ application: LiveApplication, performFetchWithCompletionHandler arguments: [String: JSONValue]
    ) {
        application.notImplemented()
    }
    public func application(_ application: LiveApplication, didReceiveRemoteNotification userInfo: JSONValue?) {
        application.notImplemented()
    }
    public func application(_ application: LiveApplication, didDiscardSceneSessions sessions: [String]) {
        application.notImplemented()
    }
    public func applicationProtectedDataWillBecomeUnavailable(_ application: LiveApplication) {
        application.notImplemented()
    }
    public func applicationProtectedDataDidBecomeAvailable(_ application: LiveApplication) {
        application.notImplemented()
    }
    public func applicationSignificantTimeChange(_ application: LiveApplication) { application.notImplemented() }
}

/// `UISceneDelegate` (and `UIWindowSceneDelegate`'s restoration) for a live app's scenes: `session` names the
/// scene's session.
public protocol LiveSceneDelegate: AnyObject {
    func scene(_ application: LiveApplication, willConnectTo session: String, options: [String: JSONValue])
    func sceneDidDisconnect(_ application: LiveApplication, session: String)
    func sceneWillEnterForeground(_ application: LiveApplication, session: String)
    func sceneDidBecomeActive(_ application: LiveApplication, session: String)
    func sceneWillResignActive(_ application: LiveApplication, session: String)
    func sceneDidEnterBackground(_ application: LiveApplication, session: String)
    /// `stateRestorationActivityForScene:`: true keeps the app's `restorableState` with the session.
    func stateRestorationActivity(_ application: LiveApplication, session: String) -> Bool
}

extension LiveSceneDelegate {
    public func scene(_ application: LiveApplication, willConnectTo session: String, options: [String: JSONValue]) {
        application.notImplemented()
    }
    public func sceneDidDisconnect(_ application: LiveApplication, session: String) { application.notImplemented() }
    public func sceneWillEnterForeground(_ application: LiveApplication, session: String) {
        application.notImplemented()
    }
    public func sceneDidBecomeActive(_ application: LiveApplication, session: String) { application.notImplemented() }
    public func sceneWillResignActive(_ application: LiveApplication, session: String) { application.notImplemented() }
    public func sceneDidEnterBackground(_ application: LiveApplication, session: String) {
        application.notImplemented()
    }
    public func stateRestorationActivity(_ application: LiveApplication, session: String) -> Bool {
        application.notImplemented()
        return true
    }
}

/// A team's delegates turned into a live app's answers: the one adapter of both forms, in process
/// (`EmbeddedDaemon.attach`) and over HTTP (`LifecycledClient.attach`). Each callback is answered by the method of
/// its selector; one the protocols do not name is not implemented.
public final class LiveDelegateAdapter: CallbackAnswering, @unchecked Sendable {
    public let application: LiveApplication
    private let delegate: any LiveApplicationDelegate
    private let sceneDelegate: (any LiveSceneDelegate)?

    public init(
        app: String, delegate: any LiveApplicationDelegate, sceneDelegate: (any LiveSceneDelegate)? = nil
    ) {
        application = LiveApplication(app: app)
        self.delegate = delegate
        self.sceneDelegate = sceneDelegate
    }

    public func answer(_ callback: PendingCallback) -> CallbackAnswer {
        let app = application
        app.begin(callback)
        let args = callback.args
        var returned: Bool?
        switch callback.selector {
        case Selector.backgroundTaskExpirationHandler:
            // A task whose handler is gone (or was never given) has nothing to run it: not implemented.
            let task = args["task"]?.numberValue.map { Int($0) }
            if task.map(app.expire) != true { app.notImplemented() }
        case Selector.willFinishLaunchingWithOptions:
            returned = delegate.application(app, willFinishLaunchingWithOptions: args)
        case Selector.didFinishLaunchingWithOptions:
            returned = delegate.application(app, didFinishLaunchingWithOptions: args)
        case Selector.didBecomeActive: delegate.applicationDidBecomeActive(app)
        case Selector.willResignActive: delegate.applicationWillResignActive(app)
        case Selector.didEnterBackground: delegate.applicationDidEnterBackground(app)
        case Selector.willEnterForeground: delegate.applicationWillEnterForeground(app)
        case Selector.willTerminate: delegate.applicationWillTerminate(app)
        case Selector.didReceiveMemoryWarning: delegate.applicationDidReceiveMemoryWarning(app)
        case Selector.openURLOptions, Selector.openURLSourceApplication, Selector.handleOpenURL:
            returned = delegate.application(app, open: args["url"]?.stringValue ?? "", options: args)
        case Selector.shouldSaveApplicationState:
            returned = delegate.application(app, shouldSaveApplicationState: args)
        case Selector.willEncodeRestorableState:
            delegate.application(app, willEncodeRestorableState: args["state"] ?? .null)
        case Selector.shouldRestoreApplicationState:
            returned = delegate.application(app, shouldRestoreApplicationState: args)
        case Selector.didDecodeRestorableState:
            let savedAt = args["savedAt"]?.numberValue ?? 0
            delegate.application(app, didDecodeRestorableState: args["state"] ?? .null, savedAt: savedAt)
        case Selector.performFetch, Selector.didReceiveRemoteNotificationFetch:
            delegate.application(app, performFetchWithCompletionHandler: args)
        case Selector.didReceiveRemoteNotification:
            delegate.application(app, didReceiveRemoteNotification: args["userInfo"])
        case Selector.didDiscardSceneSessions:
            let sessions: [String] =
                if case .array(let items)? = args["sessions"] { items.compactMap(\.stringValue) } else { [] }
            delegate.application(app, didDiscardSceneSessions: sessions)
        case Selector.protectedDataWillBecomeUnavailable: delegate.applicationProtectedDataWillBecomeUnavailable(app)
        case Selector.protectedDataDidBecomeAvailable: delegate.applicationProtectedDataDidBecomeAvailable(app)
        case Selector.significantTimeChange: delegate.applicationSignificantTimeChange(app)
        default:
            returned = answerScene(callback)
        }
        return app.finish(returning: returned)
    }

    /// A scene delegate's callback; not implemented without a scene delegate or for a selector it lacks.
    private func answerScene(_ callback: PendingCallback) -> Bool? {
        let app = application
        guard let scene = sceneDelegate, let session = callback.session else {
            app.notImplemented()
            return nil
        }
        switch callback.selector {
        case Selector.sceneWillConnect: scene.scene(app, willConnectTo: session, options: callback.args)
        case Selector.sceneDidDisconnect: scene.sceneDidDisconnect(app, session: session)
        case Selector.sceneWillEnterForeground: scene.sceneWillEnterForeground(app, session: session)
        case Selector.sceneDidBecomeActive: scene.sceneDidBecomeActive(app, session: session)
        case Selector.sceneWillResignActive: scene.sceneWillResignActive(app, session: session)
        case Selector.sceneDidEnterBackground: scene.sceneDidEnterBackground(app, session: session)
        case Selector.sceneStateRestorationActivity: return scene.stateRestorationActivity(app, session: session)
        default: app.notImplemented()
        }
        return nil
    }
}
