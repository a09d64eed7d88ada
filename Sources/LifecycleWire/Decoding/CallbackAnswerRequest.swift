package import LifecycleCore

/// A live delegate's answer to one callback as JSON (LIFECYCLE §13): `implemented`, `returns`, `duration`,
/// `actions` (a script's actions plus `endBackgroundTask`), and in a recording `hung`. Read from
/// `POST .../apps/{id}/pending-callback` (with `callback`, the id it answers) and from a scenario step's `answers`.
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

    /// `answers` of a scenario step: the answers its input got, in the order asked.
    package static func answers(_ value: JSONValue, path: String) throws(APIError) -> [CallbackAnswer] {
        guard case .array(let items) = value else {
            throw .invalidField(path, "\(path) must be an array of answers, not \(value.typeName)")
        }
        return try items.enumerated().map { (index, item) throws(APIError) in
            try answer(FieldReader(item, prefix: "\(path)[\(index)].", what: "an answer"))
        }
    }
}
