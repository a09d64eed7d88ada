/// The system's decision to wake or launch an app in the background for it (LIFECYCLE §6, "The wake policy").

/// A wake the system may give an app that is not in front.
public enum Wake: String, Sendable, Codable, CaseIterable {
    /// `application:performFetchWithCompletionHandler:` (`backgroundFetch`).
    case backgroundFetch
    /// A push with content-available (`remoteNotification {contentAvailable: true}`).
    case silentPush
    /// The app's background URL session has events for it (LIFECYCLE §14).
    case backgroundURLSession
    /// The system runs a BGTaskScheduler task (`launchTask`, LIFECYCLE §15).
    case backgroundTask
}

/// Why the wake policy refused a wake, in the order the policy asks.
public enum WakeRefusal: String, Sendable, Codable, CaseIterable {
    /// The user swiped the app away in the app switcher and has not launched it since (nor restarted the device).
    case forceQuit
    /// Background App Refresh is restricted on the device (a configuration profile, parental controls).
    case backgroundAppRefreshRestricted
    /// The device's Background App Refresh switch is off.
    case backgroundAppRefreshOff
    /// The app's own Background App Refresh switch is off.
    case appBackgroundAppRefreshOff
    /// Low Power Mode is on (iOS 9 and later): it turns Background App Refresh off.
    case lowPowerMode
    /// The app had its silent pushes of the hour (iOS 13 and later; `WakePolicy.silentPushesPerHour`).
    case silentPushBudget
}

/// `UIApplication.backgroundRefreshStatus` (iOS 7 and later).
public enum BackgroundRefreshStatus: String, Sendable, Codable, CaseIterable {
    case restricted, denied, available
}

/// The policy's numbers.
public enum WakePolicy {
    /// (chosen) Silent pushes that wake one app in any hour: Apple asks for no more than "two or three per hour".
    public static let silentPushesPerHour = 3
    /// The window the budget counts over, in seconds.
    public static let budgetWindow = 3600.0
    /// The notification posted when an app's `backgroundRefreshStatus` changes.
    public static let statusNotification = "UIApplicationBackgroundRefreshStatusDidChangeNotification"
}
