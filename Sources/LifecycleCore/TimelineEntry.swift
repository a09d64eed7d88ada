/// One observable thing that happened on a device, in order: the output of the state machine.
public struct TimelineEntry: Equatable, Sendable, Codable {
    /// Strictly increasing per device, from 1.
    public var seq: UInt64
    /// Simulated seconds on the device's clock.
    public var time: Double
    /// The app it happened to; nil for a device-level record.
    public var app: String?
    public var body: Body
    /// The scene session it is about: scene-delegate callbacks, UIScene notifications, `sceneState` entries.
    public var session: String?
    /// A scene-delegate callback's scene state during the call.
    public var sceneState: SceneState?

    public init(
        seq: UInt64, time: Double, app: String?, body: Body, session: String? = nil, sceneState: SceneState? = nil
    ) {
        self.seq = seq
        self.time = time
        self.app = app
        self.body = body
        self.session = session
        self.sceneState = sceneState
    }

    public enum Body: Equatable, Sendable, Codable {
        /// A delegate method ran; `state` is `applicationState` during the call.
        case callback(selector: String, state: AppState, args: [String: JSONValue], duration: Double)
        /// A notification was posted to the app; `queuedAt` and `coalesced` when it waited in the queue.
        case notification(name: String, userInfo: [String: JSONValue], queuedAt: Double?, coalesced: Int?)
        case state(from: AppState, to: AppState)
        /// The app stopped running; `foreground`: whether it was in front (nil in entries saved before it was
        /// kept). Its code, signal and category are its reason's (`TerminationReason.kind`).
        case termination(reason: TerminationReason, notified: Bool, foreground: Bool?)
        /// Input from the main run loop, delivered or dropped; `coalesced` on a deferred redraw.
        case runLoop(event: RunLoopEvent, delivered: Bool, coalesced: Int?)
        /// A device-level event as it was applied.
        case device(event: String, detail: [String: JSONValue])
        case backgroundTask(event: BackgroundTaskEvent, task: Int, name: String?)
        /// A scene moved from one state to another (LIFECYCLE §11.2); the session is the entry's.
        case sceneState(from: SceneState, to: SceneState)
        /// The app took up or let go of a resource, or the system closed it at suspension (LIFECYCLE §6).
        case resource(resource: AppResource, event: ResourceEvent)
        /// The system's snapshot of the app's UI as it went to the background: which of its sensitive views
        /// showed and which it had hidden (LIFECYCLE §6).
        case snapshot(visible: [String], hidden: [String])
        /// The launch image the system showed as it launched the app in front (LIFECYCLE §4).
        case launchImage(image: String)
        /// The wake policy refused to wake or launch the app in the background for `wake`, and why (LIFECYCLE §6).
        case wakeRefused(wake: Wake, reason: WakeRefusal)
        /// A background transfer of the app's started, finished (or failed) in the system's hands, or was cancelled
        /// by the user's force-quit (LIFECYCLE §14).
        case transfer(event: TransferEvent, session: String, task: TransferTask, name: String)
        /// A BGTaskScheduler request or task (LIFECYCLE §15): submitted, refused (`reason`: the error), begun,
        /// progress (`progress`), completed, expired or cancelled (`reason`: why).
        case scheduledTask(
            event: ScheduledTaskEvent, identifier: String, kind: ScheduledTaskKind, reason: ScheduledTaskReason?,
            progress: Double?)
    }

    /// The wire name of the entry's kind.
    public var kind: String {
        switch body {
        case .callback: "callback"
        case .notification: "notification"
        case .state: "state"
        case .termination: "termination"
        case .runLoop: "runloop"
        case .device: "device"
        case .backgroundTask: "backgroundTask"
        case .sceneState: "sceneState"
        case .resource: "resource"
        case .snapshot: "snapshot"
        case .launchImage: "launchImage"
        case .wakeRefused: "wakeRefused"
        case .transfer: "transfer"
        case .scheduledTask: "scheduledTask"
        }
    }

    public var isCallback: Bool {
        if case .callback = body { return true }
        return false
    }

    public var isNotification: Bool {
        if case .notification = body { return true }
        return false
    }
}

public enum BackgroundTaskEvent: String, Sendable, Codable, CaseIterable {
    /// `refused`: the system would not begin it (UIKit answers `UIBackgroundTaskInvalid`, the task id 0).
    case began, ended, expired, refused
}

/// What happened to a resource an app holds.
public enum ResourceEvent: String, Sendable, Codable, CaseIterable {
    /// `closedBySystem`: the app still held it when it was suspended (LIFECYCLE §6).
    case acquired, released, closedBySystem
}

/// Why an app stopped running.
public enum TerminationReason: String, Sendable, Codable, CaseIterable {
    /// It left the foreground without multitasking (before iOS 4, `exitsOnSuspend`, or no multitasking device).
    case exited
    /// The system ended it (`terminate`).
    case terminated
    case forceQuit
    case crash
    case reboot
    /// A callback ran past its limit: `0x8badf00d`.
    case watchdog
    /// Its background tasks outlived the budget and were not ended: `0x2182bad2`.
    case backgroundTaskExpired
    /// Purged while suspended, or terminated to free memory.
    case memoryPressure
    /// Built with the iOS 27 SDK without the scene life cycle, on iOS 27: it fails to launch (LIFECYCLE §11.1).
    case sceneLifecycleRequired
    /// It issued OpenGL ES commands in the background (LIFECYCLE §6, seed 000 §3.3 (1)).
    case gpuInBackground
    /// It still used the Address Book or Calendar when it was suspended (LIFECYCLE §6, seed 000 §3.3 (6)).
    case sharedResourceInUse
    /// It still held a file lock (a `fileLock` resource) when it was suspended: `0xdead10cc` (LIFECYCLE §9.1).
    case suspendedWithLockedFile
    /// It had not called the completion handler of `application:handleEventsForBackgroundURLSession:completionHandler:`
    /// when its window closed: `0x2182bad3` (LIFECYCLE §14).
    case backgroundURLSessionExpired
    /// A BGTaskScheduler task still running when its time ran out, its expiration handler leaving it unfinished:
    /// `0x2182bad2` (LIFECYCLE §15).
    case scheduledTaskExpired
}

/// How an app last stopped running.
public struct Termination: Equatable, Sendable, Codable {
    public var reason: TerminationReason
    public var time: Double
    /// Whether it got `applicationWillTerminate:`.
    public var notified: Bool
    /// Whether it was in front (active or inactive) as it ended; nil for an end saved before it was kept.
    public var foreground: Bool?

    /// Its reason's code (`TerminationReason.kind`).
    public var code: String? { reason.kind.code }
}
