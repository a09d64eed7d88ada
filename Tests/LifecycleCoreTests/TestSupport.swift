@testable import LifecycleCore

/// A device under test with everything it produced, so each test states only its events and expectations.
struct Sim {
    var device: Device
    private(set) var entries: [TimelineEntry] = []
    /// The entries of the last accepted input.
    private(set) var last = Outcome(entries: [], changed: false)

    init(
        ios: String = "17.0", multitasking: Bool = true, passcode: Bool = false, memoryMB: Int = 1024,
        clock: ClockMode = .manual, suspendDelay: Double = 0, settings: [String: JSONValue] = [:],
        idiom: Idiom = .phone, sceneDisconnectDelay: Double? = nil
    ) {
        var configuration = DeviceConfiguration()
        configuration.iosVersion = Version(ios)!
        configuration.multitasking = multitasking
        configuration.passcode = passcode
        configuration.memoryMB = memoryMB
        configuration.clockMode = clock
        configuration.suspendDelay = suspendDelay
        configuration.settings = settings
        configuration.idiom = idiom
        configuration.sceneDisconnectDelay = sceneDisconnectDelay
        device = try! Device(id: "d", configuration: configuration)
    }

    /// Adds a not-running app; every option is the API's default unless given.
    mutating func add(
        _ id: String = "a", ios: String? = nil, exitsOnSuspend: Bool = false, backgroundModes: [String] = [],
        urlSchemes: [String] = [], notImplemented: Set<String> = [], durations: [String: Double] = [:],
        returns: [String: Bool] = [:], endsTasksOnExpiration: Bool = true, memoryMB: Int = 100,
        scenes: SceneManifest? = nil, configurationForConnecting: String? = nil, sdk: String? = nil,
        accessoryProtocols: [String]? = nil, actions: [String: [CallbackAction]]? = nil,
        sensitiveViews: [String]? = nil,
        launchImages: [String]? = nil, restorableState: JSONValue? = nil, bgTaskIdentifiers: [String]? = nil
    ) {
        var configuration = AppConfiguration(bundleId: "com.example.\(id)", iosVersion: ios.map { Version($0)! })
        configuration.info = InfoPlist(
            exitsOnSuspend: exitsOnSuspend, backgroundModes: backgroundModes, urlSchemes: urlSchemes)
        configuration.delegate = DelegateBehaviour(
            notImplemented: notImplemented, durations: durations, returns: returns,
            endsTasksOnExpiration: endsTasksOnExpiration)
        configuration.memoryMB = memoryMB
        configuration.info.sceneManifest = scenes
        configuration.info.externalAccessoryProtocols = accessoryProtocols
        configuration.delegate.actions = actions
        configuration.sensitiveViews = sensitiveViews
        configuration.info.launchImages = launchImages
        configuration.info.bgTaskIdentifiers = bgTaskIdentifiers
        configuration.restorableState = restorableState
        configuration.delegate.configurationForConnecting = configurationForConnecting
        configuration.sdkVersion = sdk.map { Version($0)! }
        try! device.addApp(id: id, configuration: configuration)
    }

    /// An app-delegate app's launch in front once it is `inactive` (iOS 6 and later): the launch callbacks, then
    /// active.
    static let launchCallbacksThenActive = [
        "call application:willFinishLaunchingWithOptions: [inactive]",
        "call application:didFinishLaunchingWithOptions: [inactive]",
        "post UIApplicationDidFinishLaunchingNotification",
        "state inactive→active",
        "call applicationDidBecomeActive: [active]",
        "post UIApplicationDidBecomeActiveNotification",
    ]

    /// The trace of an app in front, inactive under Notification Center or the app switcher, when another app
    /// starts: straight to the background (no `applicationWillResignActive:`), then suspended.
    static let inactiveStraightToSuspended = [
        "state inactive→background",
        "call applicationDidEnterBackground: [background]",
        "post UIApplicationDidEnterBackgroundNotification",
        "state background→suspended",
    ]

    /// `a` launched and sent Home, then `b` launched in front: where the rules of switching apps start.
    static func aBehindB(ios: String = "7.0", multitasking: Bool = true) throws -> Sim {
        var sim = Sim(ios: ios, multitasking: multitasking)
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch)
        return sim
    }

    /// Applies events posted on `app`'s path (app or device events).
    @discardableResult
    mutating func on(_ app: String, _ events: Event..., now: Double = 0) throws(Rejection) -> Outcome {
        try apply(events, app: app, now: now)
    }

    /// Applies events posted on the device's path.
    @discardableResult
    mutating func onDevice(_ events: Event..., now: Double = 0) throws(Rejection) -> Outcome {
        try apply(events, app: nil, now: now)
    }

    @discardableResult
    mutating func apply(_ events: [Event], app: String?, now: Double) throws(Rejection) -> Outcome {
        let outcome = try device.apply(events, app: app, now: now)
        entries += outcome.entries
        last = outcome
        return outcome
    }

    /// Moves a clock to `now` as a realtime driver does.
    @discardableResult
    mutating func advance(to now: Double) -> Outcome {
        let outcome = device.advance(to: now)
        entries += outcome.entries
        last = outcome
        return outcome
    }

    /// The rejection of events posted on `app`'s path (nil: the device's), or nil when they were accepted.
    mutating func rejection(_ app: String?, _ events: Event...) -> Rejection? {
        do {
            try apply(events, app: app, now: 0)
            return nil
        } catch {
            return error
        }
    }

    func app(_ id: String) -> AppInstance { device.app(id)! }
    func state(_ id: String) -> AppState { app(id).state }
    var time: Double { device.time }

    func selectors(_ id: String) -> [String] { entries.selectors(of: id) }
    func callbackStates(_ id: String) -> [AppState] { entries.callbackStates(of: id) }
    func notifications(_ id: String) -> [String] { entries.notificationNames(of: id) }
    func states(_ id: String) -> [AppState] { entries.statesEntered(by: id) }
    func trace(_ id: String) -> [String] { entries.trace(of: id) }
    func deviceEvents() -> [String] {
        entries.compactMap { if case .device(let event, _) = $0.body { event } else { nil } }
    }
}

extension [TimelineEntry] {
    func of(_ app: String) -> [TimelineEntry] { filter { $0.app == app } }

    func selectors(of app: String) -> [String] {
        of(app).compactMap { if case .callback(let selector, _, _, _) = $0.body { selector } else { nil } }
    }

    func callbackStates(of app: String) -> [AppState] {
        of(app).compactMap { if case .callback(_, let state, _, _) = $0.body { state } else { nil } }
    }

    func callbackArgs(of app: String) -> [[String: JSONValue]] {
        of(app).compactMap { if case .callback(_, _, let args, _) = $0.body { args } else { nil } }
    }

    func notificationNames(of app: String) -> [String] {
        of(app).compactMap { if case .notification(let name, _, _, _) = $0.body { name } else { nil } }
    }

    func statesEntered(by app: String) -> [AppState] {
        of(app).compactMap { if case .state(_, let to) = $0.body { to } else { nil } }
    }

    func runLoop(of app: String) -> [Bool] {
        of(app).compactMap { if case .runLoop(_, let delivered, _) = $0.body { delivered } else { nil } }
    }

    /// One line per entry about `app`, in order: the timeline as the spec reads it.
    func trace(of app: String) -> [String] { of(app).map(\.line) }
}

extension TimelineEntry {
    /// `call S [state]`, `post N`, `state a→b`, `end reason notified code`, `runloop e true|false`, `task began 1`,
    /// `resource r event`, `transfer event session task name`.
    var line: String {
        switch body {
        case .callback(let selector, let state, _, _):
            "call \(selector) [\(state)]" + (session.map { " \($0):\(sceneState!)" } ?? "")
        case .notification(let name, _, let queuedAt, _):
            (queuedAt == nil ? "post \(name)" : "queued \(name)") + (session.map { " \($0)" } ?? "")
        case .state(let from, let to): "state \(from)→\(to)"
        case .termination(let reason, let notified, _):
            "end \(reason) notified:\(notified)" + (reason.kind.code.map { " \($0)" } ?? "")
        case .runLoop(let event, let delivered, let coalesced):
            "runloop \(event) \(delivered)" + (coalesced.map { " ×\($0)" } ?? "")
        case .device(let event, _): "device \(event)"
        case .backgroundTask(let event, let task, _): "task \(event) \(task)"
        case .sceneState(let from, let to): "scene \(session!) \(from)→\(to)"
        case .resource(let resource, let event): "resource \(resource) \(event)"
        case .launchImage(let image): "launch image \(image)"
        case .wakeRefused(let wake, let reason): "refused \(wake) \(reason)"
        case .transfer(let event, let session, let task, let name): "transfer \(event) \(session) \(task) \(name)"
        case .scheduledTask(let event, let identifier, let kind, let reason, let progress):
            "bgtask \(event) \(kind) \(identifier)" + (reason.map { " \($0)" } ?? "")
                + (progress.map { " \($0)" } ?? "")
        case .snapshot(let visible, let hidden):
            "snapshot visible:\(visible.joined(separator: ",")) hidden:\(hidden.joined(separator: ","))"
                + (session.map { " \($0)" } ?? "")
        }
    }
}

extension Event {
    static let foregroundLaunch = Event.launch(background: false, url: nil, sourceApplication: nil)
    static let backgroundLaunch = Event.launch(background: true, url: nil, sourceApplication: nil)
    static func urlLaunch(_ url: String, from source: String? = nil) -> Event {
        .launch(background: false, url: url, sourceApplication: source)
    }
    static func open(_ url: String) -> Event {
        .openURL(url: url, sourceApplication: nil, annotation: nil, session: nil)
    }
    static func task(_ name: String? = nil, duration: Double? = nil) -> Event {
        .beginBackgroundTask(name: name, duration: duration)
    }
    static func wait(_ seconds: Double) -> Event { .advanceTime(seconds: seconds) }
    static let touch = Event.runLoop(.touch)
    static let contentAvailablePush = Event.remoteNotification(payload: nil, contentAvailable: true)
}

/// The selectors of a foreground launch, by version.
enum Launch {
    static let ios6 = [Selector.willFinishLaunchingWithOptions, Selector.didFinishLaunchingWithOptions]
    static let ios3 = [Selector.didFinishLaunchingWithOptions]
    static let ios2 = [Selector.didFinishLaunching]
}

enum Note {
    static let didFinishLaunching = "UIApplicationDidFinishLaunchingNotification"
    static let didBecomeActive = "UIApplicationDidBecomeActiveNotification"
    static let willResignActive = "UIApplicationWillResignActiveNotification"
    static let didEnterBackground = "UIApplicationDidEnterBackgroundNotification"
    static let willEnterForeground = "UIApplicationWillEnterForegroundNotification"
    static let willTerminate = "UIApplicationWillTerminateNotification"
    static let memoryWarning = "UIApplicationDidReceiveMemoryWarningNotification"
    static let protectedDataWillBecomeUnavailable = "UIApplicationProtectedDataWillBecomeUnavailable"
    static let protectedDataDidBecomeAvailable = "UIApplicationProtectedDataDidBecomeAvailable"
    static let orientation = "UIDeviceOrientationDidChangeNotification"
    static let locale = "NSCurrentLocaleDidChangeNotification"
    static let significantTime = "UIApplicationSignificantTimeChangeNotification"
}
