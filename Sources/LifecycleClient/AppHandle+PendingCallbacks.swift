import Foundation
public import LifecycleCore
import LifecycleJSON
import LifecycleOpenAPI
import LifecycleWire

/// A live app's callback waiting for its answer over HTTP (`GET .../pending-callback`, LIFECYCLE §13).
public struct WaitingCallback: Sendable, Equatable {
    /// Its number on the device: what the answer names.
    public var id: Int
    /// The callback as a live delegate is shown it (the same value an in-process delegate is handed).
    public var callback: PendingCallback
    /// Wall-clock seconds since 1970 past which the daemon takes it as hung (`--live-answer-timeout`).
    public var deadline: Double
}

/// A live app's callbacks answered over HTTP (docs/API.md, "Live delegates over HTTP").
extension AppHandle {
    /// The callback the app waits on, or nil; with `wait` (seconds), a read that finds none is held until one is
    /// asked or the wait ends. Throws `not-found` for an app that is not there, `invalid-transition` for one
    /// with a scripted delegate.
    public func pendingCallback(wait: Double? = nil) async throws -> WaitingCallback? {
        let read = try await client.answer("getPendingCallbackInNamespace") {
            switch try await client.api.getPendingCallbackInNamespace(
                path: .init(ns: client.namespace, id: id), query: .init(wait: wait))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "getPendingCallbackInNamespace", answer: "\(other)")
            }
        }
        guard let pending = read.pending else { return nil }
        return try WaitingCallback(pending)
    }

    /// Answers callback `callback` (a `WaitingCallback`'s `id`) with `answer`. Throws `invalid-transition` when
    /// the app no longer waits on it (answered already, or taken as hung once its deadline passed).
    public func answerCallback(_ callback: Int, with answer: CallbackAnswer) async throws {
        guard case .object(var members) = LiveAnswerEncoder.json(answer) else { return }
        members["callback"] = .number(Double(callback))
        // The answer as the API's encoder writes it, read by the generated decoder (as events are sent).
        let body = try JSONDecoder().decode(
            Components.Schemas.CallbackAnswerRequest.self, from: Data(JSONWriter.encode(.object(members))))
        try await client.answer("answerPendingCallbackInNamespace") {
            switch try await client.api.answerPendingCallbackInNamespace(
                path: .init(ns: client.namespace, id: id), body: .json(body))
            {
            case .ok: ()
            case let other: throw UnexpectedAnswer(operation: "answerPendingCallbackInNamespace", answer: "\(other)")
            }
        }
    }
}

extension WaitingCallback {
    /// The pending callback as the generated client decoded it.
    init(_ pending: Components.Schemas.PendingCallback) throws {
        guard let state = AppState(rawValue: pending.state) else {
            throw UnexpectedAnswer(operation: "getPendingCallbackInNamespace", answer: "the state \(pending.state)")
        }
        // The arguments are any JSON: read back through the daemon's own parser into the core's value.
        let args = try JSONParser.parse(Array(JSONEncoder().encode(pending.args)))
        guard case .object(let members) = args else {
            throw UnexpectedAnswer(operation: "getPendingCallbackInNamespace", answer: "args \(args)")
        }
        id = pending.id
        deadline = pending.deadline
        callback = PendingCallback(
            app: pending.app, selector: pending.selector, args: members, state: state, session: pending.session,
            sceneState: pending.sceneState.flatMap(SceneState.init(rawValue:)), limit: pending.limit,
            time: pending.time, backgroundTimeRemaining: pending.backgroundTimeRemaining,
            nextBackgroundTask: pending.nextBackgroundTask, backgroundTasks: pending.backgroundTasks)
    }
}
