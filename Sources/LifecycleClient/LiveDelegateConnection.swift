import Foundation
import LifecycleCore
import Synchronization

/// A team's delegates answering a live app's callbacks over HTTP, on a daemon running elsewhere
/// (`LifecycledClient.attach`, docs/LIFECYCLE.md §13): the same `LiveApplicationDelegate` and `LiveSceneDelegate`
/// an `EmbeddedDaemon` runs in process, turned into answers by the same `LiveDelegateAdapter`. A task long-polls
/// the app's pending callback, hands it to the adapter and posts its answer, until `detach()` or the app's
/// deletion ends it.
///
/// The events request that causes a callback completes once the callback is answered, so what the delegate did
/// is done by the time that request returns, as in process. The delegate runs on a serial queue of the
/// connection's own, one callback at a time: a delegate that blocks its thread holds up no other task.
public final class LiveDelegateConnection: Sendable {
    /// Why the connection stopped answering.
    public enum Ending: Sendable, Equatable {
        /// `detach()` was called (or the task awaiting `ended()` was cancelled).
        case detached
        /// The app was deleted (or its device, or its namespace).
        case appDeleted
    }

    /// The adapter answering: its `application` is the app's `UIApplication`.
    public let adapter: LiveDelegateAdapter
    private let counts = Mutex((answered: 0, late: 0))
    private let loop = Mutex<Task<Ending, any Error>?>(nil)
    /// Where the delegate runs: its main thread, as far as it can tell.
    private let delegateQueue = DispatchQueue(label: "lifecycled.live-delegate-connection")

    /// Seconds each long poll waits for a callback before asking again (within the daemon's `--max-wait`).
    static let pollSeconds = 30.0

    init(adapter: LiveDelegateAdapter) { self.adapter = adapter }

    /// The app's `UIApplication`, as the delegate sees it inside a callback.
    public var application: LiveApplication { adapter.application }

    /// Callbacks answered and taken.
    public var answered: Int { counts.withLock { $0.answered } }

    /// Answers the daemon refused because the callback no longer waited for them: given after its deadline
    /// (`--live-answer-timeout`), it had been taken as hung, and the app saw the watchdog end it.
    public var lateAnswers: Int { counts.withLock { $0.late } }

    /// Stops answering: the loop ends once its request under way returns. A callback asked afterwards waits
    /// for another client, or hangs at its deadline.
    public func detach() { loop.withLock { $0?.cancel() } }

    /// Waits for the connection to stop: why it did, or the error that stopped it (the daemon unreachable, an
    /// answer it refused as invalid: a `LifecycledProblem` naming the field).
    @discardableResult
    public func ended() async throws -> Ending {
        guard let task = loop.withLock({ $0 }) else { return .detached }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Starts answering the callbacks of `app`.
    func start(answering app: AppHandle) {
        let task = Task { [self] in try await run(app) }
        loop.withLock { $0 = task }
    }

    private func run(_ app: AppHandle) async throws -> Ending {
        while !Task.isCancelled {
            let waiting: WaitingCallback?
            do {
                waiting = try await app.pendingCallback(wait: Self.pollSeconds)
            } catch {
                if let ending = Self.ending(by: error) { return ending }
                throw error
            }
            guard let waiting else { continue }
            let answer = await withCheckedContinuation { answered in
                delegateQueue.async { [adapter] in answered.resume(returning: adapter.answer(waiting.callback)) }
            }
            do {
                try await app.answerCallback(waiting.id, with: answer)
                counts.withLock { $0.answered += 1 }
            } catch let problem as LifecycledProblem where problem.code == "invalid-transition" {
                counts.withLock { $0.late += 1 }
            } catch {
                if let ending = Self.ending(by: error) { return ending }
                throw error
            }
        }
        return .detached
    }

    /// The ending an error of a request means, if it means one: the app gone, or the loop cancelled.
    private static func ending(by error: any Error) -> Ending? {
        if let problem = error as? LifecycledProblem, problem.code == "not-found" { return .appDeleted }
        if Task.isCancelled { return .detached }
        return nil
    }
}

extension LifecycledClient {
    /// Makes `delegate` (and `sceneDelegate`) the live delegate of app `app` of this client's namespace, created
    /// with `delegate: {"live": true}`, over HTTP: the form of `EmbeddedDaemon.attach(_:sceneDelegate:toApp:)` for a
    /// daemon running elsewhere (docs/LIFECYCLE.md §13). From now on each callback the app waits on is answered by
    /// their methods, until `detach()` or the app's deletion. Throws a `LifecycledProblem` for an app that does not
    /// exist or is not live.
    public func attach(
        _ delegate: any LiveApplicationDelegate, sceneDelegate: (any LiveSceneDelegate)? = nil, toApp app: String
    ) async throws -> LiveDelegateConnection {
        let handle = self.app(app)
        // Refused at once (404, 409), as in process, rather than by the first long poll.
        _ = try await handle.pendingCallback()
        let connection = LiveDelegateConnection(
            adapter: LiveDelegateAdapter(app: app, delegate: delegate, sceneDelegate: sceneDelegate))
        connection.start(answering: handle)
        return connection
    }
}
