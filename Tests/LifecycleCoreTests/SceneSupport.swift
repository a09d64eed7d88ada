@testable import LifecycleCore

extension SceneManifest {
    /// One configuration, `Default Configuration`, with a `SceneDelegate`: the Xcode template's manifest.
    static let standard = SceneManifest(configurations: [SceneConfiguration(name: "Default Configuration")])
    /// The standard manifest with `UIApplicationSupportsMultipleScenes`.
    static let multiple = SceneManifest(
        supportsMultipleScenes: true, configurations: [SceneConfiguration(name: "Default Configuration")])
}

extension Sim {
    /// An iOS 13+ device (an iPad when `pad`) with one scene app `a` and the template manifest unless given.
    static func scenes(
        pad: Bool = false, manifest: SceneManifest = .standard, suspendDelay: Double = 0,
        sceneDisconnectDelay: Double? = nil
    ) -> Sim {
        var sim = Sim(
            ios: "13.0", suspendDelay: suspendDelay, idiom: pad ? .pad : .phone,
            sceneDisconnectDelay: sceneDisconnectDelay)
        sim.add("a", scenes: manifest)
        return sim
    }

    func sessions(_ id: String = "a") -> [String] { app(id).sessions.map(\.id) }
    func sceneStates(_ id: String = "a") -> [SceneState] { app(id).sessions.map(\.state) }

    /// The trace of `app` from the entries of the last input only.
    func lastTrace(_ id: String = "a") -> [String] { last.entries.trace(of: id) }
}

extension Event {
    static func activate(_ session: String) -> Event { .activate(session: session) }
    static func openScene(
        _ session: String? = nil, url: String? = nil, placement: ScenePlacement = .split
    ) -> Event {
        .openScene(session: session, url: url, sourceApplication: nil, placement: placement)
    }
    static func open(_ url: String, session: String) -> Event {
        .openURL(url: url, sourceApplication: nil, annotation: nil, session: session)
    }
}

/// The trace lines of the scene steps (LIFECYCLE §11.4), for session `s`.
enum Steps {
    static func connect(_ s: String, new: Bool = true, state: AppState = .background) -> [String] {
        (new ? ["call \(Selector.configurationForConnecting) [\(state)]"] : []) + [
            "call scene:willConnectToSession:options: [\(state)] \(s):unattached",
            "post UISceneWillConnectNotification \(s)",
            "scene \(s) unattached→background",
        ]
    }
    static let cold = [
        "state notRunning→background",
        "call application:willFinishLaunchingWithOptions: [background]",
        "call application:didFinishLaunchingWithOptions: [background]",
        "post UIApplicationDidFinishLaunchingNotification",
    ]
    /// Enter foreground and Activate of the app's only scene, from the background.
    static func comeForward(_ s: String) -> [String] {
        [
            "call sceneWillEnterForeground: [background] \(s):background",
            "post UISceneWillEnterForegroundNotification \(s)",
            "post UIApplicationWillEnterForegroundNotification",
            "scene \(s) background→foregroundInactive",
            "state background→inactive",
            "scene \(s) foregroundInactive→foregroundActive",
            "state inactive→active",
            "call sceneDidBecomeActive: [active] \(s):foregroundActive",
            "post UISceneDidActivateNotification \(s)",
            "post UIApplicationDidBecomeActiveNotification",
        ]
    }
    /// Deactivate and Enter background of the app's only scene.
    static func goBack(_ s: String) -> [String] {
        [
            "call sceneWillResignActive: [active] \(s):foregroundActive",
            "post UISceneWillDeactivateNotification \(s)",
            "post UIApplicationWillResignActiveNotification",
            "scene \(s) foregroundActive→foregroundInactive",
            "state active→inactive",
            "scene \(s) foregroundInactive→background",
            "state inactive→background",
            "call sceneDidEnterBackground: [background] \(s):background",
            "post UISceneDidEnterBackgroundNotification \(s)",
            "post UIApplicationDidEnterBackgroundNotification",
        ]
    }
}
