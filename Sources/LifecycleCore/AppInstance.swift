/// One simulated app on a device: its configuration and everything the lifecycle moves.
public struct AppInstance: Equatable, Sendable, Codable {
    public let id: String
    /// Its place among the device's apps: the order in which apps hear about device-wide events.
    public let ordinal: Int
    /// What the client chose; never changes. Boxed, so copying an app (done on every callback) retains
    /// one reference instead of each of its arrays, sets and strings.
    /// Read in place (`_read`, inlined into other modules): `app.configuration.info` copies the info alone,
    /// never the configuration.
    @inlinable public var configuration: AppConfiguration {
        _read { yield storedConfiguration.value }
    }
    @usableFromInline let storedConfiguration: ConfigurationBox
    /// Its deployment target: its own `iosVersion`, or its device's; the device's OS gates the rules (LIFECYCLE §2).
    public let iosVersion: Version

    public internal(set) var state = AppState.notRunning
    public internal(set) var stateSince: Double
    /// `seq` of the newest entry about this app; 0 before any.
    public internal(set) var lastSeq: UInt64 = 0
    public internal(set) var backgroundTasks: [BackgroundTask] = []
    /// Continuous background modes in use, sorted.
    public internal(set) var backgroundActivities: [String] = []
    /// Notifications waiting while suspended, coalesced, oldest first.
    public internal(set) var queuedNotifications: [QueuedNotification] = []
    /// Redraws asked for in the background, drawn as one after the app becomes active.
    public internal(set) var pendingRedraws = 0
    public internal(set) var termination: Termination?
    /// Resources it holds (`acquire` actions), sorted; nil when none (and in apps saved before they existed).
    var heldResources: [AppResource]?

    /// Resources it holds, in catalogue order.
    public var resources: [AppResource] { heldResources ?? [] }
    /// Sensitive views it has hidden (`hideViews`), in the order `sensitiveViews` lists them; nil: none.
    public internal(set) var hiddenViews: [String]?
    /// The state the system preserved as the app last went to the background, offered to its next launch;
    /// nil: none (LIFECYCLE §4).
    public internal(set) var preservedState: PreservedState?
    /// The alerts and action sheets it shows, oldest first; nil: none (LIFECYCLE §6).
    var shownAlerts: [ShownAlert]?

    /// The alerts and action sheets it shows, oldest first.
    public var alerts: [ShownAlert] { shownAlerts ?? [] }
    /// The status bar's height in points as the process last heard it (LIFECYCLE §5); nil: the normal height.
    var heardStatusBarHeight: Double?

    /// True from the user's force-quit until the user launches it or the device restarts: no fetch or silent push
    /// wakes it (LIFECYCLE §6, the wake policy); nil: false (and in apps saved before the policy).
    var stoppedByForceQuit: Bool?
    /// True while the app's own Background App Refresh switch is off; nil: on.
    var backgroundRefreshSwitchOff: Bool?
    /// When silent pushes woke it, the newest last, at most `WakePolicy.silentPushesPerHour`; nil: none.
    var silentPushWakes: [Double]?

    /// Whether the user's force-quit keeps fetches and silent pushes from waking it (LIFECYCLE §6).
    public var wakesStoppedByForceQuit: Bool { stoppedByForceQuit == true }
    /// The app's own Background App Refresh switch in Settings.
    public var backgroundAppRefreshSwitch: Bool { backgroundRefreshSwitchOff != true }

    /// How often it has stopped running, by category, in front and not (LIFECYCLE §9.1); nil: never since
    /// this was kept.
    var exitCounts: ExitCounts?

    /// How often it has stopped running, by category, in front and not: what `MXAppExitMetric` counts.
    public var exits: ExitCounts { exitCounts ?? ExitCounts() }

    /// The BGTaskScheduler requests it submitted that have not run, oldest first (queued continued tasks
    /// included); nil: none (and in apps saved before them) (LIFECYCLE §13).
    var taskRequests: [PendingTaskRequest]?
    /// The BGTaskScheduler tasks running for it, oldest first; nil: none.
    var scheduledTasks: [RunningScheduledTask]?

    /// Its pending BGTaskScheduler requests, oldest first.
    public var pendingTaskRequests: [PendingTaskRequest] { taskRequests ?? [] }
    /// Its running BGTaskScheduler tasks, oldest first.
    public var runningTasks: [RunningScheduledTask] { scheduledTasks ?? [] }
    /// The identifiers of its BGTaskScheduler requests and tasks now (§15): what an event's `identifier` names.
    public var scheduledTaskIdentifiers: [String] {
        pendingTaskRequests.map(\.request.identifier) + runningTasks.map(\.identifier)
    }

    /// Every stored property under the name it has always been saved with (`configuration` is the box's).
    private enum CodingKeys: String, CodingKey {
        case id, ordinal, storedConfiguration = "configuration", iosVersion, state, stateSince, lastSeq
        case backgroundTasks, backgroundActivities, queuedNotifications, pendingRedraws, termination
        case heldResources, hiddenViews, backgroundSince, budgetExhausted, idleSince, windowEnd, windowWatchdog
        case sceneBook, preservedState, shownAlerts, prewarmStage
        case heardStatusBarHeight
        case stoppedByForceQuit, backgroundRefreshSwitchOff, silentPushWakes
        case exitCounts
        case transfers, windowKill
        case taskRequests, scheduledTasks
    }

    /// Its background transfers, oldest first: under way in the system's hands, or ended and waiting to be told
    /// (LIFECYCLE §14); nil: none. They outlive the process, but not the user's force-quit.
    var transfers: [BackgroundTransfer]?
    /// What ends the app when its window's watchdog fires; nil: the watchdog (`0x8badf00d`).
    var windowKill: TerminationReason?

    /// Its background transfers, oldest first (LIFECYCLE §14).
    public var backgroundTransfers: [BackgroundTransfer] { transfers ?? [] }

    /// How far a prewarm ran the app's launch, while it waits for its launch to go on (LIFECYCLE §12.1); nil
    /// otherwise.
    public internal(set) var prewarmStage: PrewarmStage?
    /// When the app last entered the background: the start of the background task budget.
    var backgroundSince: Double?
    /// Whether the budget ran out in this background stay; new tasks are refused until the foreground.
    var budgetExhausted = false
    /// When an idle background app became idle; it suspends `suspendDelay` later.
    var idleSince: Double?
    /// A fetch or content-available window: closes at `windowEnd`, or the watchdog fires at `windowWatchdog`.
    var windowEnd: Double?
    var windowWatchdog: Double?
    /// Sessions and what the scene life cycle remembers; nil until the app has a session (and in apps
    /// saved before scenes existed).
    var sceneBook: SceneBook?

    /// The app's scene sessions not yet discarded, in creation order (LIFECYCLE §11); empty for app-delegate apps.
    public var sessions: [SceneSession] { sceneBook?.sessions ?? [] }

    var scenes: SceneBook {
        get { sceneBook ?? SceneBook() }
        set { sceneBook = newValue }
    }

    init(id: String, ordinal: Int, configuration: AppConfiguration, iosVersion: Version, time: Double) {
        self.id = id
        self.ordinal = ordinal
        self.storedConfiguration = ConfigurationBox(configuration)
        self.iosVersion = iosVersion
        self.stateSince = time
    }

    /// Moves to `state` at `time`, recorded as entry `seq`: one change of the app, not three.
    mutating func enter(_ state: AppState, at time: Double, seq: UInt64) {
        self.state = state
        stateSince = time
        lastSeq = seq
    }

    /// Seconds left of the background budget; nil outside the background.
    public func backgroundTimeRemaining(at time: Double, budget: Double) -> Double? {
        guard state == .background, let since = backgroundSince else { return nil }
        return max(0, since + budget - time)
    }

    /// Whether nothing keeps the app running in the background (LIFECYCLE §4, suspension rule).
    var isIdle: Bool {
        backgroundTasks.isEmpty && backgroundActivities.isEmpty && windowEnd == nil && scheduledTasks == nil
    }

    var delegate: DelegateBehaviour { configuration.delegate }
}

/// A task from `beginBackgroundTask`.
public struct BackgroundTask: Equatable, Sendable, Codable {
    public var id: Int
    public var name: String?
    public var began: Double
    /// When the app ends it itself; nil, it never does.
    public var endsAt: Double?
}

/// A notification waiting for a suspended app, already coalesced.
public struct QueuedNotification: Equatable, Sendable, Codable {
    /// The change kind it stands for; one entry per kind.
    public var kind: String
    public var name: String
    public var userInfo: [String: JSONValue]
    public var queuedAt: Double
    /// How many changes it stands for.
    public var coalesced: Int
    /// The value before the first queued change: a change back to it leaves nothing to deliver.
    var baseline: JSONValue?
}

/// An app's configuration behind one reference; saved and compared as the configuration itself.
@usableFromInline final class ConfigurationBox: Sendable, Equatable, Codable {
    @usableFromInline let value: AppConfiguration

    init(_ value: AppConfiguration) { self.value = value }

    @usableFromInline init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(AppConfiguration.self)
    }

    @usableFromInline func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    @usableFromInline static func == (lhs: ConfigurationBox, rhs: ConfigurationBox) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }
}

/// What the system keeps of an app's or a scene's restorable state (LIFECYCLE §4, §11.9): what it encoded,
/// and when.
public struct PreservedState: Equatable, Sendable, Codable {
    public var state: JSONValue
    public var savedAt: Double

    /// The arguments of the callback that hands it back.
    var args: [String: JSONValue] { ["state": state, "savedAt": .number(savedAt)] }
}

/// An alert view or action sheet an app shows (LIFECYCLE §6).
public struct ShownAlert: Equatable, Sendable, Codable {
    public var style: AlertStyle
    public var title: String?
    public var shownAt: Double

    /// The most an app shows at once; a `showAlert` beyond it is ignored.
    public static let limit = 16
}
