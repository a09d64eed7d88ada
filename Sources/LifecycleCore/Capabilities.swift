/// What an app can do, from its device's OS, the SDK it was linked against, its device and its Info.plist
/// (LIFECYCLE §2).
struct Capabilities {
    /// The OS: the device's `iosVersion`.
    let version: Version
    let multitasking: Bool
    /// The scene life cycle (LIFECYCLE §11.1): iOS 13 and a scene manifest, unless the iOS 27 gate stops the app.
    let usesScenes: Bool
    /// More than one session: a manifest that supports it, on an iPad.
    let multipleScenes: Bool
    /// Linked before 4.0 on a multitasking 4.0+ OS: Home gives it `applicationDidEnterBackground:`, then ends it
    /// (seed 003).
    let quitsThroughBackground: Bool
    /// Linked before 4.0, or running on an OS before 4.0: its alerts and action sheets are cancelled when it quits
    /// (seed 000 §3.3 (9)).
    let cancelsAlertsAtQuit: Bool
    /// The iOS 27 gate: an app built with the iOS 27 SDK, running on iOS 27, whose Info.plist has no scene manifest
    /// or one without configurations, fails to launch.
    let sceneLifecycleRequired: Bool

    /// Inlined, so that it reads the few fields of `info` it needs in place instead of a copy of it.
    @inline(__always)
    init(
        version: Version, deviceMultitasking: Bool, info: borrowing InfoPlist, sdkVersion: Version,
        idiom: Idiom = .phone
    ) {
        self.version = version
        // The iOS 27 gate reads the Info.plist alone: a manifest that lists no configuration is not adopted (§11.1).
        sceneLifecycleRequired =
            version >= Version(27, 0) && sdkVersion >= Version(27, 0)
            && info.sceneManifest?.configurations.isEmpty != false
        usesScenes = version >= Version(13, 0) && info.sceneManifest != nil && !sceneLifecycleRequired
        // exitsOnSuspend ends at iOS 13 and every iOS 13 device multitasks (§11.1, chosen); an app linked
        // before 4.0 does not multitask on any OS (§2).
        multitasking =
            usesScenes
            || (version >= Version(4, 0) && sdkVersion >= Version(4, 0) && deviceMultitasking
                && !info.exitsOnSuspend)
        quitsThroughBackground =
            !multitasking && version >= Version(4, 0) && sdkVersion < Version(4, 0) && deviceMultitasking
            && !info.exitsOnSuspend
        cancelsAlertsAtQuit = sdkVersion < Version(4, 0) || version < Version(4, 0)
        multipleScenes = usesScenes && info.sceneManifest?.supportsMultipleScenes == true && idiom == .pad
    }

    /// The launch callbacks, in order.
    var launchSelectors: [String] {
        if version < Version(3, 0) { return [Selector.didFinishLaunching] }
        if version < Version(6, 0) { return [Selector.didFinishLaunchingWithOptions] }
        return [Selector.willFinishLaunchingWithOptions, Selector.didFinishLaunchingWithOptions]
    }

    /// URL callbacks from the newest this version has to the oldest; the first one implemented is called.
    var urlSelectors: [String] {
        if version < Version(4, 2) { return [Selector.handleOpenURL] }
        if version < Version(9, 0) { return [Selector.openURLSourceApplication, Selector.handleOpenURL] }
        return [Selector.openURLOptions, Selector.openURLSourceApplication, Selector.handleOpenURL]
    }

    /// Remote-notification callbacks from the newest to the oldest.
    var remoteNotificationSelectors: [String] {
        if version < Version(7, 0) { return [Selector.didReceiveRemoteNotification] }
        return [Selector.didReceiveRemoteNotificationFetch, Selector.didReceiveRemoteNotification]
    }

    /// From 5.0 a locked app goes on to the background; before, it only resigns active.
    var lockBackgrounds: Bool { version >= Version(5, 0) }

    /// `applicationProtectedData...` callbacks exist from 4.0.
    var hasProtectedData: Bool { version >= Version(4, 0) }

    /// `beginBackgroundTaskWithExpirationHandler:` exists from 4.0.
    var hasBackgroundTasks: Bool { version >= Version(4, 0) }

    /// State preservation and restoration exist from 6.0.
    var hasStateRestoration: Bool { version >= Version(6, 0) }

    /// Background fetch and content-available pushes exist from 7.0.
    var hasBackgroundFetch: Bool { version >= Version(7, 0) }

    /// Seconds all background tasks share after the app enters the background.
    var backgroundBudget: Double {
        if version >= Version(13, 0) { return 30 }
        if version >= Version(7, 0) { return 180 }
        return 600
    }
}

/// Gates of device-wide UI, which depend on a version alone: there may be no app to ask.
extension Version {
    /// From 5.0 a banner changes nothing; before, every notification is an alert.
    var hasBanners: Bool { self >= Version(5, 0) }

    /// Notification Center exists from 5.0.
    var hasNotificationCenter: Bool { self >= Version(5, 0) }
}

/// Watchdog limits in simulated seconds (LIFECYCLE §9).
enum Watchdog {
    static let launch = 20.0
    static let didEnterBackground = 5.0
    static let willTerminate = 5.0
    static let backgroundWindow = 30.0
}
