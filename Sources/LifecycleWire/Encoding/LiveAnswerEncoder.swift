package import LifecycleCore
package import LifecycleJSON

/// Live delegates' callbacks and answers as JSON (LIFECYCLE §13): the pending callback a client answers over
/// HTTP, and an answer as `POST .../pending-callback` and a scenario step's `answers` take it.
package enum LiveAnswerEncoder {
    /// `{"id", "app", "selector", "args", "state", "session"?, "sceneState"?, "limit", "time",
    /// "backgroundTimeRemaining", "nextBackgroundTask", "backgroundTasks", "deadline"}`.
    package static func pending(id: Int, _ callback: PendingCallback, deadline: Double, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id")
        w.int(id)
        w.field("app")
        w.string(callback.app)
        w.field("selector")
        w.string(callback.selector)
        w.field("args")
        w.value(.object(callback.args))
        w.field("state")
        w.string(callback.state.rawValue)
        if let session = callback.session {
            w.field("session")
            w.string(session)
        }
        if let sceneState = callback.sceneState {
            w.field("sceneState")
            w.string(sceneState.rawValue)
        }
        w.field("limit")
        optional(callback.limit, into: &w)
        w.field("time")
        w.number(callback.time)
        w.field("backgroundTimeRemaining")
        optional(callback.backgroundTimeRemaining, into: &w)
        w.field("nextBackgroundTask")
        if let task = callback.nextBackgroundTask { w.int(task) } else { w.null() }
        w.field("backgroundTasks")
        w.beginArray()
        for task in callback.backgroundTasks { w.int(task) }
        w.endArray()
        w.field("deadline")
        w.number(deadline)
        w.endObject()
    }

    /// `{"id", "app", "outcome"}`: how a pending callback ended, for an event stream (`answered`, `timedOut`,
    /// `abandoned`; null when the daemon no longer remembers).
    package static func ended(id: Int, app: String, outcome: String?, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id")
        w.int(id)
        w.field("app")
        w.string(app)
        w.field("outcome")
        if let outcome { w.string(outcome) } else { w.null() }
        w.endObject()
    }

    /// An answer: `implemented`, `returns` (when given), `duration`, `actions`, `hung` (when true).
    package static func json(_ answer: CallbackAnswer) -> JSONValue {
        var members: [String: JSONValue] = [
            "implemented": .bool(answer.implemented), "duration": .number(answer.duration),
            "actions": .array(answer.actions.map(action)),
        ]
        if let returns = answer.returns { members["returns"] = .bool(returns) }
        if answer.hung == true { members["hung"] = .bool(true) }
        return .object(members)
    }

    /// One action as `delegate.actions` takes it.
    private static func action(_ action: CallbackAction) -> JSONValue {
        var w = JSONWriter(reservingCapacity: 64)
        SnapshotEncoder.action(action, into: &w)
        // What the writer just wrote parses.
        return (try? JSONParser.parse(w.bytes)) ?? .null
    }

    private static func optional(_ value: Double?, into w: inout JSONWriter) {
        if let value { w.number(value) } else { w.null() }
    }
}
