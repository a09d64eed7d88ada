package import LifecycleCore

/// A live delegate's answer to one callback as JSON (LIFECYCLE §13): `implemented`, `returns`, `duration`,
/// `actions` (a script's actions plus `endBackgroundTask`), and in a recording `hung`. Read from
/// `POST .../apps/{id}/pending-callback` (with `callback`, the id it answers) and from an events POST's `answers`.
package enum CallbackAnswerRequest {
    package static let fields = ["implemented", "returns", "duration", "actions", "hung"]

    /// The answer in `reader`'s object (`besides`: one more member it may hold, read by the caller), checked by
    /// the rules of a script's durations and actions.
    static func answer(_ reader: FieldReader, besides: String? = nil) throws(APIError) -> CallbackAnswer {
        try reader.rejectUnknown(allowed: fields, besides: besides)
        var answer = CallbackAnswer()
        answer.implemented = try reader.bool("implemented") ?? true
        answer.returns = try reader.bool("returns")
        answer.duration = try reader.number("duration", in: AppConfiguration.durationRange) ?? 0
        answer.hung = try reader.bool("hung")
        if let value = reader.value("actions") {
            guard case .array(let items) = value else {
                throw .invalidField(reader.path("actions"), "\(reader.path("actions")) must be an array of actions")
            }
            answer.actions = try items.enumerated().map { (index, item) throws(APIError) in
                try AppRequest.action(
                    FieldReader(item, prefix: reader.path("actions[\(index)]."), what: "an action"))
            }
        }
        if let failure = answer.validationFailure() {
            throw APIError(
                Rejection(code: failure.code, detail: failure.detail, field: failure.field.map(reader.path)))
        }
        return answer
    }

    /// The body of `POST .../apps/{id}/pending-callback`: the id of the callback answered, and its answer.
    package static func posted(_ body: JSONValue) throws(APIError) -> (callback: Int, answer: CallbackAnswer) {
        let reader = try FieldReader(body)
        guard let callback = try reader.integer("callback", in: 1...(1 << 53)) else {
            throw .invalidField(
                "callback", "callback is required: the id of the pending callback answered (its GET's `id`)")
        }
        return (callback, try answer(reader, besides: "callback"))
    }

    /// An events POST's body: the events, and the answers given with them when it is
    /// `{"events": [...], "answers": [...]}` (a recorded live session replayed, docs/SCENARIOS.md), else none.
    package static func answeredEvents(_ body: JSONValue) throws(APIError) -> (
        events: JSONValue, answers: [CallbackAnswer]?
    ) {
        guard case .object(let members) = body, members["type"] == nil, members["answers"] != nil else {
            return (body, nil)
        }
        let reader = try FieldReader(body)
        try reader.rejectUnknown(allowed: ["events", "answers"])
        guard let events = reader.value("events") else {
            throw .invalidField("events", "events is required with answers: the events the answers were given to")
        }
        return (events, try answers(reader.value("answers") ?? .array([]), path: "answers"))
    }

    /// The answers an input got, in the order asked (`answers` of an events POST).
    static func answers(_ value: JSONValue, path: String) throws(APIError) -> [CallbackAnswer] {
        guard case .array(let items) = value else {
            throw .invalidField(path, "\(path) must be an array of answers, not \(value.typeName)")
        }
        return try items.enumerated().map { (index, item) throws(APIError) in
            try answer(FieldReader(item, prefix: "\(path)[\(index)].", what: "an answer"))
        }
    }
}
