/// BGTaskScheduler's tasks (LIFECYCLE §15): the requests an app submits, the tasks the system runs, and what
/// the timeline says of them.

/// The kind of a task request (`BGAppRefreshTaskRequest`, `BGProcessingTaskRequest`,
/// `BGContinuedProcessingTaskRequest`).
public enum ScheduledTaskKind: String, Sendable, Codable, CaseIterable {
    /// `BGAppRefreshTask` (iOS 13): a short refresh; needs the `fetch` background mode.
    case refresh
    /// `BGProcessingTask` (iOS 13): minutes of work while the device is idle; needs the `processing` mode.
    case processing
    /// `BGContinuedProcessingTask` (iOS 26): work the user started in front, which goes on in the background.
    case continued

    /// The first OS that has it.
    public var since: Version { self == .continued ? Version(26, 0) : Version(13, 0) }
}

/// `BGContinuedProcessingTaskRequest.SubmissionStrategy`: what the system does when it cannot run the task now.
public enum ContinuedStrategy: String, Sendable, Codable, CaseIterable {
    /// The default: the request waits at the back of a queue.
    case queue
    /// The submission fails (`immediateRunIneligible`).
    case fail
}

/// What an app asks of BGTaskScheduler (`submit(_:)`), as a callback's action names it.
public struct ScheduledTaskRequest: Equatable, Sendable, Codable {
    public var kind: ScheduledTaskKind
    public var identifier: String
    /// `earliestBeginDate`, in seconds after the submission; nil: none. (Continued tasks ignore it.)
    public var earliestBegin: Double?
    /// `BGProcessingTaskRequest.requiresExternalPower`; nil: false.
    public var requiresExternalPower: Bool?
    /// `BGProcessingTaskRequest.requiresNetworkConnectivity`; nil: false. Kept and shown, not simulated.
    public var requiresNetworkConnectivity: Bool?
    /// A continued task's strategy; nil: `queue`.
    public var strategy: ContinuedStrategy?
    /// A continued task's title, shown in its Live Activity.
    public var title: String?

    public init(
        kind: ScheduledTaskKind, identifier: String, earliestBegin: Double? = nil, requiresExternalPower: Bool? = nil,
        requiresNetworkConnectivity: Bool? = nil, strategy: ContinuedStrategy? = nil, title: String? = nil
    ) {
        self.kind = kind
        self.identifier = identifier
        self.earliestBegin = earliestBegin
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.strategy = strategy
        self.title = title
    }
}

/// A request the scheduler holds for an app: submitted, not run yet.
public struct PendingTaskRequest: Equatable, Sendable, Codable {
    public var request: ScheduledTaskRequest
    public var submittedAt: Double

    /// The earliest the system may run it.
    public var notBefore: Double? { request.earliestBegin.map { submittedAt + $0 } }
}

/// A task the system runs for an app: its launch handler was called and it has not ended.
public struct RunningScheduledTask: Equatable, Sendable, Codable {
    public var identifier: String
    public var kind: ScheduledTaskKind
    public var began: Double
    /// When the app calls `setTaskCompleted(success:)`: the launch handler's duration after it began.
    public var completesAt: Double
    /// When its time runs out (the expiration handler); nil: no limit (continued tasks).
    public var expiresAt: Double?
    /// The fraction a continued task reported done; nil: none reported.
    public var progress: Double?
}

/// What happened to a task request or a task (the `scheduledTask` entry).
public enum ScheduledTaskEvent: String, Sendable, Codable, CaseIterable {
    /// `submit(_:)` accepted the request (it waits, or a continued task starts at once).
    case submitted
    /// `submit(_:)` threw; the entry's `reason` is the error code.
    case refused
    /// The system ran it: the launch handler follows.
    case began
    /// A continued task reported progress.
    case progress
    /// The app called `setTaskCompleted(success: true)`.
    case completed
    /// Its time ended (or the system stopped it): the expiration handler ran and the task ended unsuccessfully.
    case expired
    /// It was cancelled before or while it ran (`reason`: who cancelled it).
    case cancelled
}

/// Why a request was refused (BGTaskScheduler's error codes) or a task ended early.
public enum ScheduledTaskReason: String, Sendable, Codable, CaseIterable {
    // `BGTaskScheduler.Error.Code`.
    case unavailable, tooManyPendingTaskRequests, notPermitted, immediateRunIneligible
    /// The task's time ran out.
    case timeUp
    /// The user started using the device (processing tasks).
    case deviceInUse
    /// The user cancelled it from its Live Activity (continued tasks).
    case user
    /// The user removed the app from the app switcher (continued tasks).
    case appSwitcher
    /// The app registered no launch handler (its delegate does not implement it).
    case noLaunchHandler
    /// The app cancelled its own request (`cancel(taskRequestWithIdentifier:)`).
    case app
}

/// The scheduler's numbers (LIFECYCLE §15).
public enum ScheduledTasks {
    /// Apple: "a total of 1 refresh task and 10 processing tasks scheduled at any time".
    public static let pendingRefresh = 1
    public static let pendingProcessing = 10
    /// (chosen) A refresh task's time: 30 s, as WWDC 2019 describes it and apps observe.
    public static let refreshWindow = 30.0
    /// (chosen) A processing task's time: "several minutes" (WWDC 2019): 300 s.
    public static let processingWindow = 300.0
    /// (chosen) Continued tasks the device runs at once; the others wait in the queue.
    public static let continuedAtOnce = 1
    /// The identifiers an app may list.
    public static let maxIdentifiers = 64

    /// The launch handler the app registered (`register(forTaskWithIdentifier:using:launchHandler:)`).
    public static let launchHandler = "BGTaskScheduler.launchHandler"
    /// `BGTask.expirationHandler`.
    public static let expirationHandler = "BGTask.expirationHandler"
    /// A tap on the app's own button (`touchesEnded:withEvent:`): the user's action, inside which an app submits
    /// a continued task.
    public static let userAction = "touchesEnded:withEvent:"

    /// Whether `identifier` is one of `permitted`: equal, or under a wildcard (`com.example.export.*`, iOS 26).
    public static func permits(_ permitted: [String], _ identifier: String) -> Bool {
        permitted.contains { entry in
            if entry.hasSuffix("*") { return identifier.hasPrefix(entry.dropLast()) && identifier.count >= entry.count }
            return entry == identifier
        }
    }
}
