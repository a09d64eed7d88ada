/// One simulated phone: its clock, foreground slot, lock, interruption, settings and apps.
///
/// A pure state machine. Inputs are events with a time (`apply`, `advance`); outputs are the
/// timeline entries they produced, with `seq` increasing per device, or a `Rejection` that leaves
/// the device exactly as it was. It never reads a clock: `now` is an input, and `nextDeadline`
/// tells a driver when to call `advance` for a realtime clock. The same inputs give the same outputs.
public struct Device: Equatable, Sendable, Codable {
    public let id: String
    public internal(set) var configuration: DeviceConfiguration
    /// Simulated seconds since the device was created; never above `maximumTime`.
    public internal(set) var time = 0.0
    public internal(set) var locked = false
    public internal(set) var foregroundApp: String?
    public internal(set) var interruption: InterruptionKind?
    public internal(set) var notificationCenterOpen = false
    /// When the call the user answered began; nil while no call is in progress (LIFECYCLE §5).
    public internal(set) var callSince: Double?
    /// Whether the app switcher is showing (LIFECYCLE §5); saved as nil when not (and by devices saved before it).
    var appSwitcherShown: Bool?
    public var appSwitcherOpen: Bool { appSwitcherShown == true }
    /// True from a restart of a device with a passcode until its first unlock (LIFECYCLE §12.2); nil otherwise
    /// (and in devices saved before it).
    public internal(set) var firstUnlockPending: Bool?
    /// Current value of every device setting that `change` events move.
    public internal(set) var settings: [String: JSONValue]
    /// `seq` of the newest entry on this device; 0 before any.
    public internal(set) var lastSeq: UInt64 = 0
    /// App ids in the order they were added: the order in which apps hear about device-wide events.
    public internal(set) var appOrder: [String] = []

    /// The latest a device's clock can read (10^12 s, about 31,700 years): the clock stops there, so its
    /// arithmetic (deadlines, durations added to it) stays finite and exact to a millisecond.
    public static let maximumTime = 1e12

    var apps = AppTable()
    var nextTaskID = 1
    var nextOrdinal = 0
    /// The app that was in front when the device locked: it returns on unlock (from iOS 5).
    var appBeforeLock: String?
    /// Entries produced by the input being applied.
    var log: [TimelineEntry] = []
    /// Set when the input being applied changed something that leaves no entry (a session marked for discard).
    var quietChange = false
    /// While a scene app launches: when the launch watchdog fires (LIFECYCLE §11.5).
    var launchWatchdog: Double?
    /// What the input being applied asked of live delegates, and who answers them; nil while no live delegate
    /// is concerned (every scripted input: copying the device then copies one empty field).
    var liveCalls: LiveCalls?

    /// What a saved device holds: everything but the scratch state of the input being applied, so devices
    /// saved before that state existed still load.
    private enum CodingKeys: String, CodingKey {
        case id, configuration, time, locked, foregroundApp, interruption, notificationCenterOpen, callSince, settings
        case lastSeq, appSwitcherShown, firstUnlockPending
        case appOrder, apps, nextTaskID, nextOrdinal, appBeforeLock, log
    }

    /// A new device; throws the configuration's first invalid field.
    public init(id: String, configuration: DeviceConfiguration) throws(Rejection) {
        if let failure = configuration.validationFailure() { throw failure }
        self.id = id
        self.configuration = configuration
        var settings: [String: JSONValue] = [:]
        for kind in ChangeKind.settable {
            settings[kind.rawValue] = configuration.settings[kind.rawValue] ?? kind.initialValue
        }
        self.settings = settings
    }

    /// The apps in the order they were added.
    public var appsInOrder: [AppInstance] { appOrder.compactMap { apps[$0] } }

    public func app(_ id: String) -> AppInstance? { apps[id] }

    /// App `id`'s state, or nil when there is no such app; reads it without copying the app.
    public func state(of id: String) -> AppState? {
        apps.contains(id) ? apps[existing: id].state : nil
    }

    /// Ids of the apps changed (or removed) since the last call: what a driver must copy to its readers.
    public mutating func takeChangedApps() -> Set<String> { apps.takeChanged() }

    /// This device with only the given apps in its table: what a driver hands its readers after a change,
    /// without holding on to (and so later copying) the whole table.
    /// Its table holds the apps' boxes alone, without the totals and records (`catchUp` reads only the boxes).
    public func changes(of ids: Set<String>) -> Device {
        var copy = self
        copy.apps = apps.boxes(of: ids)
        return copy
    }

    /// Takes over `other`'s device state and the given apps of it: a reader's copy catching up with the
    /// state machine without copying every app.
    public mutating func catchUp(with other: Device, apps changed: Set<String>) {
        var table = AppTable()
        swap(&table, &apps)
        self = other
        // The reader's own table comes back, uniquely held, so updating it copies nothing else.
        swap(&table, &apps)
        for id in changed { apps.share(id, from: other.apps, noted: false) }
    }

    /// Whether protected data (files under data protection) can be read: false while locked with a passcode,
    /// and from a restart until the first unlock (LIFECYCLE §12.2).
    public var protectedDataAvailable: Bool { !(locked && configuration.passcode) && firstUnlockPending != true }

    /// Seconds left of `app`'s background task budget; nil outside the background.
    public func backgroundTimeRemaining(of app: AppInstance) -> Double? {
        app.backgroundTimeRemaining(at: time, budget: capabilities(of: app).backgroundBudget)
    }

    /// Megabytes held by apps in memory (running or suspended).
    public var memoryInUseMB: Int { apps.inUseMB }

    /// The OS is the device's; the SDK is the app's (LIFECYCLE §2).
    func capabilities(of app: AppInstance) -> Capabilities {
        Capabilities(
            version: configuration.iosVersion, deviceMultitasking: configuration.multitasking,
            info: app.configuration.info, sdkVersion: app.configuration.sdkVersion ?? app.iosVersion,
            idiom: configuration.idiom)
    }

    /// The same for app `id`, read field by field: reading the app whole would copy it.
    func capabilities(of id: String) -> Capabilities {
        let app = apps[existing: id].storedConfiguration
        return Capabilities(
            version: configuration.iosVersion, deviceMultitasking: configuration.multitasking, info: app.value.info,
            sdkVersion: app.value.sdkVersion ?? apps[existing: id].iosVersion, idiom: configuration.idiom)
    }
}

/// What applying an input produced.
public struct Outcome: Equatable, Sendable {
    /// Every entry the input produced, in `seq` order, across apps.
    public var entries: [TimelineEntry]
    /// False when the input was legal but changed nothing (e.g. `launch` on an active app).
    public var changed: Bool
    /// When the input held a `moveTo`: every ordinary event applied, in order, each `moveTo` replaced by its
    /// steps; applying these as one batch to the device as it was gives the same entries and state. Nil otherwise.
    public var applied: [Event]? = nil
    /// What live delegates answered during the input, in the order asked (LIFECYCLE §13): with the input,
    /// `RecordedAnswers` of them applies it again exactly. Empty when no live delegate was asked.
    public var answers: [CallbackAnswer] = []
}
