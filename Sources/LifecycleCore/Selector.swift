/// `UIApplicationDelegate` selectors, spelled exactly as UIKit spells them.
public enum Selector {
    public static let didFinishLaunching = "applicationDidFinishLaunching:"
    public static let willFinishLaunchingWithOptions = "application:willFinishLaunchingWithOptions:"
    public static let didFinishLaunchingWithOptions = "application:didFinishLaunchingWithOptions:"
    public static let handleOpenURL = "application:handleOpenURL:"
    public static let openURLSourceApplication = "application:openURL:sourceApplication:annotation:"
    public static let openURLOptions = "application:openURL:options:"
    public static let didBecomeActive = "applicationDidBecomeActive:"
    public static let willResignActive = "applicationWillResignActive:"
    public static let didEnterBackground = "applicationDidEnterBackground:"
    public static let willEnterForeground = "applicationWillEnterForeground:"
    public static let willTerminate = "applicationWillTerminate:"
    public static let didReceiveMemoryWarning = "applicationDidReceiveMemoryWarning:"
    public static let significantTimeChange = "applicationSignificantTimeChange:"
    public static let protectedDataWillBecomeUnavailable = "applicationProtectedDataWillBecomeUnavailable:"
    public static let protectedDataDidBecomeAvailable = "applicationProtectedDataDidBecomeAvailable:"
    public static let willChangeStatusBarFrame = "application:willChangeStatusBarFrame:"
    public static let didChangeStatusBarFrame = "application:didChangeStatusBarFrame:"
    public static let didReceiveRemoteNotification = "application:didReceiveRemoteNotification:"
    public static let didReceiveRemoteNotificationFetch =
        "application:didReceiveRemoteNotification:fetchCompletionHandler:"
    public static let performFetch = "application:performFetchWithCompletionHandler:"
    // Background transfers (LIFECYCLE §14, iOS 7): the app delegate's, then the session's delegate's.
    public static let handleEventsForBackgroundURLSession =
        "application:handleEventsForBackgroundURLSession:completionHandler:"
    public static let didFinishDownloading = "URLSession:downloadTask:didFinishDownloadingToURL:"
    public static let didCompleteWithError = "URLSession:task:didCompleteWithError:"
    public static let didFinishEventsForBackgroundURLSession = "URLSessionDidFinishEventsForBackgroundURLSession:"
    /// The URL session's delegate methods a client may name in `notImplemented`, `durations` and `actions`.
    public static let urlSessionSelectors = [
        didFinishDownloading, didCompleteWithError, didFinishEventsForBackgroundURLSession,
    ]
    // State preservation and restoration (LIFECYCLE §4, iOS 6).
    public static let shouldSaveApplicationState = "application:shouldSaveApplicationState:"
    public static let willEncodeRestorableState = "application:willEncodeRestorableStateWithCoder:"
    public static let shouldRestoreApplicationState = "application:shouldRestoreApplicationState:"
    public static let didDecodeRestorableState = "application:didDecodeRestorableStateWithCoder:"
    public static let configurationForConnecting = "application:configurationForConnectingSceneSession:options:"
    public static let didDiscardSceneSessions = "application:didDiscardSceneSessions:"
    // Scene-delegate methods (LIFECYCLE §11.4).
    public static let sceneWillConnect = "scene:willConnectToSession:options:"
    public static let sceneDidDisconnect = "sceneDidDisconnect:"
    public static let sceneWillEnterForeground = "sceneWillEnterForeground:"
    public static let sceneDidBecomeActive = "sceneDidBecomeActive:"
    public static let sceneWillResignActive = "sceneWillResignActive:"
    public static let sceneDidEnterBackground = "sceneDidEnterBackground:"
    public static let sceneOpenURLContexts = "scene:openURLContexts:"
    /// `stateRestorationActivity(for:)`: the activity saved with the scene's session (§11.8).
    public static let sceneStateRestorationActivity = "stateRestorationActivityForScene:"
    // The alert's and the action sheet's delegates (LIFECYCLE §6): the system cancels them when an app linked
    // before iOS 4 quits.
    public static let alertViewCancel = "alertViewCancel:"
    public static let actionSheetCancel = "actionSheetCancel:"
    public static let alertViewClickedButton = "alertView:clickedButtonAtIndex:"
    public static let actionSheetClickedButton = "actionSheet:clickedButtonAtIndex:"
    public static let alertSelectors = [
        alertViewCancel, alertViewClickedButton, actionSheetCancel, actionSheetClickedButton,
    ]
    /// The selectors a client may name in `notImplemented` and `durations` besides the app delegate's.
    public static let sceneSelectors = [
        sceneWillConnect, sceneDidDisconnect, sceneWillEnterForeground, sceneDidBecomeActive, sceneWillResignActive,
        sceneDidEnterBackground, sceneOpenURLContexts, sceneStateRestorationActivity, configurationForConnecting,
        didDiscardSceneSessions,
    ]

    /// The app-delegate methods the daemon models.
    public static let appDelegateSelectors = [
        didFinishLaunching, willFinishLaunchingWithOptions, didFinishLaunchingWithOptions, handleOpenURL,
        openURLSourceApplication, openURLOptions, didBecomeActive, willResignActive, didEnterBackground,
        willEnterForeground, willTerminate, didReceiveMemoryWarning, significantTimeChange,
        protectedDataWillBecomeUnavailable, protectedDataDidBecomeAvailable, willChangeStatusBarFrame,
        didChangeStatusBarFrame, didReceiveRemoteNotification, didReceiveRemoteNotificationFetch, performFetch,
        shouldSaveApplicationState, willEncodeRestorableState, shouldRestoreApplicationState, didDecodeRestorableState,
        configurationForConnecting, didDiscardSceneSessions, handleEventsForBackgroundURLSession,
    ]
    /// What a delegate's `notImplemented` and `durations` may name: every method of either delegate, and of
    /// the alerts'.
    public static let configurable =
        appDelegateSelectors + sceneSelectors.filter { !appDelegateSelectors.contains($0) } + alertSelectors
        + urlSessionSelectors
        + [ScheduledTasks.launchHandler, ScheduledTasks.expirationHandler, ScheduledTasks.userAction]
    /// What a delegate's `returns` may name: the `BOOL` methods, the one that returns a configuration's name,
    /// and the scene's restoration activity (false: it returns nil).
    public static let returning = [
        willFinishLaunchingWithOptions, didFinishLaunchingWithOptions, handleOpenURL, openURLSourceApplication,
        openURLOptions, shouldSaveApplicationState, shouldRestoreApplicationState, configurationForConnecting,
        sceneStateRestorationActivity,
    ]

    /// Not a delegate method: the handler passed to `beginBackgroundTaskWithExpirationHandler:`.
    public static let backgroundTaskExpirationHandler = "backgroundTaskExpirationHandler"

    /// The notification posted right after a delegate method (LIFECYCLE §3), if it has one.
    public static func notification(after selector: String) -> String? {
        switch selector {
        case didFinishLaunching, didFinishLaunchingWithOptions: "UIApplicationDidFinishLaunchingNotification"
        case didBecomeActive: "UIApplicationDidBecomeActiveNotification"
        case willResignActive: "UIApplicationWillResignActiveNotification"
        case didEnterBackground: "UIApplicationDidEnterBackgroundNotification"
        case willEnterForeground: "UIApplicationWillEnterForegroundNotification"
        case willTerminate: "UIApplicationWillTerminateNotification"
        case didReceiveMemoryWarning: "UIApplicationDidReceiveMemoryWarningNotification"
        case significantTimeChange: "UIApplicationSignificantTimeChangeNotification"
        case protectedDataWillBecomeUnavailable: "UIApplicationProtectedDataWillBecomeUnavailable"
        case protectedDataDidBecomeAvailable: "UIApplicationProtectedDataDidBecomeAvailable"
        case willChangeStatusBarFrame: "UIApplicationWillChangeStatusBarFrameNotification"
        case didChangeStatusBarFrame: "UIApplicationDidChangeStatusBarFrameNotification"
        case sceneWillConnect: "UISceneWillConnectNotification"
        case sceneDidDisconnect: "UISceneDidDisconnectNotification"
        case sceneWillEnterForeground: "UISceneWillEnterForegroundNotification"
        case sceneDidBecomeActive: "UISceneDidActivateNotification"
        case sceneWillResignActive: "UISceneWillDeactivateNotification"
        case sceneDidEnterBackground: "UISceneDidEnterBackgroundNotification"
        default: nil
        }
    }
}
