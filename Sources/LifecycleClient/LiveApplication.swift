public import LifecycleCore

/// `UIApplication` as a live delegate sees it inside a callback (docs/LIFECYCLE.md §13): the app's state and
/// background time as the callback starts, and what the delegate does in it, which becomes the callback's
/// answer: the background tasks it begins and ends, the simulated time it takes, the alerts it shows.
///
/// It lives on the device's queue: use it only inside a callback of your delegate (or of an expiration
/// handler it registered), never from another thread or after the callback returned.
public final class LiveApplication: @unchecked Sendable {
    /// `UIBackgroundTaskInvalid`: what `beginBackgroundTask` gives when the system refuses a task.
    public static let invalidBackgroundTask = 0

    /// The app's id on the daemon.
    public let app: String
    /// `applicationState`.
    public private(set) var applicationState: AppState = .notRunning
    /// `backgroundTimeRemaining`: seconds of background time left; `.greatestFiniteMagnitude` in front, as
    /// UIKit gives it.
    public private(set) var backgroundTimeRemaining = Double.greatestFiniteMagnitude
    /// The device's simulated clock as the callback started.
    public private(set) var time = 0.0
    /// The callback being answered, with its arguments as the daemon gives them.
    public private(set) var callback: PendingCallback?

    /// The answer being built for the callback under way.
    private var answer = CallbackAnswer()
    private var nextTask: Int?
    /// The expiration handlers of the tasks begun, by task id, until each task ends.
    private var expirationHandlers: [Int: () -> Void] = [:]

    init(app: String) { self.app = app }

    /// `beginBackgroundTaskWithName:expirationHandler:`: the task's id, or `invalidBackgroundTask` where the
    /// system refuses one (inside `applicationWillTerminate:`, before iOS 4, with the background time used up).
    /// `expirationHandler` runs, inside a callback of its own, when the task's time is up: it should end it.
    @discardableResult
    public func beginBackgroundTask(withName name: String? = nil, expirationHandler: (() -> Void)? = nil) -> Int {
        answer.actions.append(.beginBackgroundTask(name: name, duration: nil))
        guard let task = nextTask else { return Self.invalidBackgroundTask }
        nextTask = task + 1
        if let expirationHandler { expirationHandlers[task] = expirationHandler }
        return task
    }

    /// `endBackgroundTask:`.
    public func endBackgroundTask(_ task: Int) {
        guard task != Self.invalidBackgroundTask else { return }
        expirationHandlers[task] = nil
        answer.actions.append(.endBackgroundTask(task: task))
    }

    /// The callback takes `seconds` more of simulated time (work done on the main thread): past the
    /// callback's watchdog, the app is killed with `0x8badf00d`.
    public func spend(_ seconds: Double) { answer.duration += seconds }

    /// Anything else the app does inside the callback, as the script's actions say it (`useGPU`, `acquire`,
    /// `showAlert`, `hideViews`, ...).
    public func perform(_ action: CallbackAction) { answer.actions.append(action) }

    /// Marks the callback under way as one the delegate does not implement: what the protocols' default
    /// implementations call.
    public func notImplemented() { answer.implemented = false }

    /// The failures the delegate reported (`expect`, `check`), oldest first, each naming the callback it was
    /// in and the simulated time: an exploration takes the first as a property found false (docs/EXPLORE.md).
    public private(set) var failures: [String] = []

    /// The team's own assertion inside a callback: when `condition` is false, `message` is a failure.
    public func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { record(message()) }
    }

    /// Runs `body`, the team's own code inside a callback: an error it throws is a failure.
    public func check(_ body: () throws -> Void) {
        do { try body() } catch { record("\(error)") }
    }

    private func record(_ message: String) {
        let inside = callback.map { " (in \($0.selector) at \($0.time.plainText) s)" } ?? ""
        failures.append(message + inside)
    }

    /// Starts the answer to `callback`.
    func begin(_ callback: PendingCallback) {
        self.callback = callback
        applicationState = callback.state
        backgroundTimeRemaining = callback.backgroundTimeRemaining ?? .greatestFiniteMagnitude
        time = callback.time
        nextTask = callback.nextBackgroundTask
        answer = CallbackAnswer()
        // Tasks the system ended meanwhile (expired, the app killed) have no handler to run any more.
        let unfinished = Set(callback.backgroundTasks)
        expirationHandlers = expirationHandlers.filter { unfinished.contains($0.key) }
    }

    /// The answer, with what a `BOOL` method returned.
    func finish(returning value: Bool? = nil) -> CallbackAnswer {
        var finished = answer
        if finished.implemented { finished.returns = value }
        callback = nil
        return finished
    }

    /// Runs task `task`'s expiration handler; false when it registered none.
    func expire(_ task: Int) -> Bool {
        guard let handler = expirationHandlers.removeValue(forKey: task) else { return false }
        handler()
        return true
    }
}
