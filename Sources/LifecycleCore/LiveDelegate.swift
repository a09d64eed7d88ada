import Synchronization

/// A callback a live delegate is asked to answer, as it starts (LIFECYCLE §13): what it is and what the app
/// sees of itself then.
public struct PendingCallback: Equatable, Sendable {
    public var app: String
    /// The delegate method, as a selector (`applicationDidEnterBackground:`), or
    /// `backgroundTaskExpirationHandler` for a task's expiration handler.
    public var selector: String
    public var args: [String: JSONValue]
    /// The app's state as the callback starts (`UIApplication.applicationState`).
    public var state: AppState
    /// The scene session of a scene-delegate callback; nil for the application delegate.
    public var session: String?
    public var sceneState: SceneState?
    /// Seconds the callback may take before the watchdog ends the app; nil where no watchdog watches it.
    public var limit: Double?
    /// The device's clock as the callback starts.
    public var time: Double
    /// `backgroundTimeRemaining`: seconds of background time left; nil outside the background.
    public var backgroundTimeRemaining: Double?
    /// The id the first `beginBackgroundTask` inside this callback gets (the next ones follow it); nil when the
    /// system refuses background tasks here (inside `applicationWillTerminate:`, before iOS 4, with the
    /// background time used up).
    public var nextBackgroundTask: Int?
    /// The app's unfinished background tasks, oldest first.
    public var backgroundTasks: [Int]

    public init(
        app: String, selector: String, args: [String: JSONValue] = [:], state: AppState, session: String? = nil,
        sceneState: SceneState? = nil, limit: Double? = nil, time: Double = 0, backgroundTimeRemaining: Double? = nil,
        nextBackgroundTask: Int? = nil, backgroundTasks: [Int] = []
    ) {
        self.app = app
        self.selector = selector
        self.args = args
        self.state = state
        self.session = session
        self.sceneState = sceneState
        self.limit = limit
        self.time = time
        self.backgroundTimeRemaining = backgroundTimeRemaining
        self.nextBackgroundTask = nextBackgroundTask
        self.backgroundTasks = backgroundTasks
    }
}

/// What a live delegate answered to one callback: the same facts a script gives (`DelegateBehaviour`), for
/// this call alone. Answers are a device's inputs: recorded with the event that caused them, they replay it.
public struct CallbackAnswer: Equatable, Sendable, Codable {
    /// False: the delegate does not implement the method (no callback entry; its notification still posts).
    public var implemented = true
    /// What a `BOOL` method returned (`application:didFinishLaunchingWithOptions:`,
    /// `application:shouldSaveApplicationState:`, a scene's `stateRestorationActivity`); nil: YES.
    public var returns: Bool?
    /// Seconds of simulated time the callback took (`AppConfiguration.durationRange`).
    public var duration = 0.0
    /// What the app did inside it, in order, as the callback starts (`CallbackAction.limit` at most).
    public var actions: [CallbackAction] = []
    /// True when the delegate never answered (a hang): the watchdog ends the app (`Device.hangLimit`).
    public var hung: Bool?

    public init(
        implemented: Bool = true, returns: Bool? = nil, duration: Double = 0, actions: [CallbackAction] = [],
        hung: Bool? = nil
    ) {
        self.implemented = implemented
        self.returns = returns
        self.duration = duration
        self.actions = actions
        self.hung = hung
    }

    /// The delegate does not implement the method.
    public static let notImplemented = CallbackAnswer(implemented: false)
    /// The delegate did not answer: its main thread is taken to be stuck.
    public static let hang = CallbackAnswer(hung: true)

    /// The first rule this answer breaks, as the rejection a client sees: the rules of a script's
    /// durations and actions.
    public func validationFailure() -> Rejection? {
        if !AppConfiguration.durationRange.contains(duration) {
            return .invalidField("duration", "a callback duration must be from 0 to 86400 seconds, not \(duration)")
        }
        if actions.count > CallbackAction.limit {
            return .invalidField(
                "actions", "an answer lists \(actions.count) actions; a callback takes at most \(CallbackAction.limit)")
        }
        for action in actions {
            if let detail = action.validationFailure() { return .invalidField("actions", detail) }
        }
        return nil
    }

    /// The duration the core applies: within `AppConfiguration.durationRange` whatever a caller built.
    var appliedDuration: Double {
        duration >= 0 ? min(duration, AppConfiguration.durationRange.upperBound) : 0
    }
}

/// The app's delegate, answered live: the core asks it, synchronously, at each callback of a live app
/// (`delegate.live`), and applies the answer by the rules a script's answer goes through.
public protocol CallbackAnswering: AnyObject, Sendable {
    func answer(_ callback: PendingCallback) -> CallbackAnswer
}

/// Answers recorded from a live session, given back in order: the same events with them replay the device
/// byte for byte without the live code. Past the last one, every callback hangs.
public final class RecordedAnswers: CallbackAnswering {
    private let left: Mutex<ArraySlice<CallbackAnswer>>

    public init(_ answers: [CallbackAnswer]) { left = Mutex(answers[...]) }

    public func answer(_ callback: PendingCallback) -> CallbackAnswer {
        left.withLock { $0.popFirst() } ?? .hang
    }

    /// How many recorded answers were not asked for.
    public var unused: Int { left.withLock { $0.count } }
}
