/// The Info.plist keys the lifecycle depends on.
public struct InfoPlist: Equatable, Sendable, Codable {
    /// `UIApplicationExitsOnSuspend`: the app terminates instead of entering the background.
    public var exitsOnSuspend = false
    /// `UIBackgroundModes`: `audio`, `location`, `voip`, `fetch`, `remote-notification`, ...
    public var backgroundModes: [String] = []
    /// `CFBundleURLSchemes`: when not empty, `openURL` must use one of them.
    public var urlSchemes: [String] = []
    /// `UIApplicationSceneManifest`; nil: none (LIFECYCLE §11.1).
    public var sceneManifest: SceneManifest?
    /// `UISupportedExternalAccessoryProtocols`: the app talks to accessories (LIFECYCLE §6). Nil, never empty,
    /// when it declares none (configurations saved before the key existed have none).
    public var externalAccessoryProtocols: [String]?
    /// The launch images the bundle holds, by base name (`Default`, `Default-mail`): the one the system shows
    /// for a foreground launch (LIFECYCLE §4). Nil, never empty, when it lists none.
    public var launchImages: [String]?
    /// `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may submit (LIFECYCLE §15), a trailing
    /// `*` a wildcard; nil, never empty, when it lists none.
    public var bgTaskIdentifiers: [String]?

    /// Whether the app's accessory session lasts only while it is in front (LIFECYCLE §6): it declares
    /// accessory protocols and not the `external-accessory` background mode.
    var closesAccessorySessionInBackground: Bool {
        externalAccessoryProtocols != nil && !backgroundModes.contains("external-accessory")
    }

    public init(
        exitsOnSuspend: Bool = false, backgroundModes: [String] = [], urlSchemes: [String] = [],
        sceneManifest: SceneManifest? = nil
    ) {
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.urlSchemes = urlSchemes
        self.sceneManifest = sceneManifest
    }
}

/// How the simulated `UIApplicationDelegate` behaves: which methods it has, how long they take,
/// and what the `BOOL` ones return.
public struct DelegateBehaviour: Equatable, Sendable, Codable {
    /// Selectors the delegate does not implement: never called, never recorded (their notifications still post).
    public var notImplemented: Set<String> = []
    /// Seconds of simulated time a callback takes; a callback over its watchdog limit kills the app.
    public var durations: [String: Double] = [:]
    /// Return values of `BOOL` methods; a missing one returns true.
    public var returns: [String: Bool] = [:]
    /// Whether the expiration handler ends its tasks (true) or leaves them, getting the app killed.
    public var endsTasksOnExpiration = true
    /// The configuration name `application:configurationForConnectingSceneSession:options:` returns; nil: the
    /// manifest's first for the role.
    public var configurationForConnecting: String?
    /// What the app does inside a callback, by selector, in order (LIFECYCLE §6); nil: nothing (and in
    /// configurations saved before actions existed).
    public var actions: [String: [CallbackAction]]?
    /// True: the delegate is answered live, at each callback, by a `CallbackAnswering` (LIFECYCLE §13), and the
    /// script's fields above are not used; nil: scripted (and in configurations saved before live delegates).
    public var live: Bool?

    public init(
        notImplemented: Set<String> = [], durations: [String: Double] = [:], returns: [String: Bool] = [:],
        endsTasksOnExpiration: Bool = true
    ) {
        self.notImplemented = notImplemented
        self.durations = durations
        self.returns = returns
        self.endsTasksOnExpiration = endsTasksOnExpiration
    }

    /// Whether the delegate is answered live.
    public var isLive: Bool { live == true }

    func implements(_ selector: String) -> Bool { !notImplemented.contains(selector) }
    func actions(inside selector: String) -> [CallbackAction] { actions?[selector] ?? [] }
    func duration(of selector: String) -> Double { durations[selector] ?? 0 }
    func returnValue(of selector: String) -> Bool { returns[selector] ?? true }
}

/// What a client chooses when it creates an app.
public struct AppConfiguration: Equatable, Sendable, Codable {
    public var bundleId: String
    /// nil: the device's version.
    public var iosVersion: Version?
    public var info = InfoPlist()
    public var delegate = DelegateBehaviour()
    public var memoryMB = 100
    /// The SDK the app was built with; nil: its iOS version (the iOS 27 gate, LIFECYCLE §11.1).
    public var sdkVersion: Version?
    /// Views that show sensitive information, which the app should hide before the system's snapshot
    /// (LIFECYCLE §6); nil when it declares none: then no snapshot entry is recorded.
    public var sensitiveViews: [String]?
    /// What the app encodes when the system preserves its state (`application:willEncodeRestorableStateWithCoder:`,
    /// a scene's `stateRestorationActivity`); nil: the app does not opt in to state restoration (LIFECYCLE §4).
    public var restorableState: JSONValue?

    public init(bundleId: String, iosVersion: Version? = nil) {
        self.bundleId = bundleId
        self.iosVersion = iosVersion
    }

    /// The first rule this configuration breaks, as the rejection a client sees.
    /// Simulated seconds a delegate callback may take.
    public static let durationRange = 0.0...86_400
    /// The most sensitive views an app may list.
    public static let maxSensitiveViews = 64

    public func validationFailure() -> Rejection? {
        // Counted in Unicode scalars, as JSON Schema's maxLength counts.
        if bundleId.isEmpty || bundleId.unicodeScalars.count > 255 {
            return .invalidField("bundleId", "bundleId must be a non-empty string of at most 255 characters")
        }
        if !DeviceConfiguration.memoryRange.contains(memoryMB) {
            return .invalidField("memoryMB", "memoryMB must be a whole number from 1 to 1048576, not \(memoryMB)")
        }
        if delegate.isLive,
            !delegate.notImplemented.isEmpty || !delegate.durations.isEmpty || !delegate.returns.isEmpty
                || delegate.actions != nil || !delegate.endsTasksOnExpiration
                || delegate.configurationForConnecting != nil
        {
            return .invalidField(
                "delegate.live",
                "a live delegate answers each callback itself: leave out notImplemented, durations, returns, "
                    + "endsTasksOnExpiration and actions")
        }
        for (selector, seconds) in delegate.durations where !Self.durationRange.contains(seconds) {
            return .invalidField(
                "delegate.durations.\(selector)", "a callback duration must be from 0 to 86400 seconds")
        }
        for (selector, list) in delegate.actions ?? [:] {
            if list.count > CallbackAction.limit {
                return .invalidField(
                    "delegate.actions",
                    "\(selector) lists \(list.count) actions; a callback takes at most \(CallbackAction.limit)")
            }
            for action in list {
                let named: [String]
                switch action {
                case .hideViews(let views?), .showViews(let views?): named = views
                default: named = []
                }
                for view in named where !(sensitiveViews ?? []).contains(view) {
                    return .invalidField(
                        "delegate.actions",
                        "\(selector) names the view \(view), which sensitiveViews does not list",
                        allowed: sensitiveViews ?? [])
                }
            }
            for action in list {
                if let detail = action.validationFailure(in: selector) {
                    return .invalidField("delegate.actions", detail)
                }
            }
        }
        if let failure = ScheduledTasks.validationFailure(of: self) { return failure }
        if let views = sensitiveViews {
            if views.count > Self.maxSensitiveViews {
                return .invalidField(
                    "sensitiveViews",
                    "an app lists at most \(Self.maxSensitiveViews) sensitive views, not \(views.count)")
            }
            for view in views where view.isEmpty || view.unicodeScalars.count > 128 {
                return .invalidField("sensitiveViews", "a view's name is a non-empty string of at most 128 characters")
            }
            if Set(views).count != views.count {
                return .invalidField("sensitiveViews", "each sensitive view is listed once")
            }
        }
        for name in info.externalAccessoryProtocols ?? [] where name.isEmpty || name.unicodeScalars.count > 255 {
            return .invalidField(
                "info.externalAccessoryProtocols",
                "each accessory protocol is a non-empty string of at most 255 characters, like com.example.protocol")
        }
        for name in info.launchImages ?? [] where name.isEmpty || name.unicodeScalars.count > 255 {
            return .invalidField(
                "info.launchImages",
                "each launch image is a file's base name, a non-empty string of at most 255 characters, like Default-mail"
            )
        }
        for mode in info.backgroundModes where !BackgroundMode.declarable.contains(mode) {
            return .invalidField(
                "info.backgroundModes", "\(mode) is not a UIBackgroundModes value",
                allowed: BackgroundMode.declarable.sorted())
        }
        if let manifest = info.sceneManifest {
            var names: Set<String> = []
            for configuration in manifest.configurations where !names.insert(configuration.name).inserted {
                return .invalidField(
                    "info.sceneManifest.configurations",
                    "configuration names must be unique; \(configuration.name) appears twice")
            }
        }
        return nil
    }
}

/// An alert view or an action sheet (seed 000 §3.3 (9)).
public enum AlertStyle: String, Sendable, Codable, CaseIterable {
    case alert, actionSheet

    /// The delegate method the system calls when it cancels one (`alertViewCancel:`, `actionSheetCancel:`).
    var cancelSelector: String { self == .alert ? Selector.alertViewCancel : Selector.actionSheetCancel }
    /// What UIKit does instead when the delegate does not implement it: a tap on the cancel button.
    var clickedSelector: String { self == .alert ? Selector.alertViewClickedButton : Selector.actionSheetClickedButton }
}

/// What an app may hold across the background (seed 000 §3.3 (2), (3), (6); LIFECYCLE §9.1).
public enum AppResource: String, Sendable, Codable, CaseIterable {
    case addressBook, calendar, bonjourService, listeningSocket
    /// A file lock or an SQLite database lock (a write under way, a database in an app group container).
    case fileLock

    /// The shared system databases: still in use when the app is suspended, they get it killed. The others
    /// the system closes then.
    public var isShared: Bool { self == .addressBook || self == .calendar }

    /// Why the system kills an app still holding it when suspended; nil: the system closes it instead.
    var suspensionKill: TerminationReason? {
        switch self {
        case .addressBook, .calendar: .sharedResourceInUse
        case .fileLock: .suspendedWithLockedFile
        case .bonjourService, .listeningSocket: nil
        }
    }
}

/// `UIBackgroundModes` values.
public enum BackgroundMode {
    /// Modes that keep an app running while an activity lasts (`startBackgroundActivity`).
    public static let continuous: Set<String> = [
        "audio", "location", "voip", "external-accessory", "bluetooth-central", "bluetooth-peripheral",
    ]
    /// Every value Info.plist may declare.
    public static let declarable: Set<String> = continuous.union([
        "fetch", "remote-notification", "newsstand-content", "processing",
    ])
}
