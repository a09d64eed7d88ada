package import LifecycleCore

/// Events as a client posts them: the `applied` steps of a `moveTo` and the step a refusal names.
///
/// Derived from the catalogue (`EventType.details`): a member is written only when it differs from what
/// its absence means, so `EventDecoder.decodeOne` reads every encoded event back as the same event.
package enum EventEncoder {
    package static func json(_ event: Event) -> JSONValue {
        let (type, values) = (event.eventType, event.fieldValues)
        var members: [String: JSONValue] = ["type": .string(type.name)]
        for (index, field) in type.details.fields.enumerated() {
            guard let value = values[index], field.requirement != .defaulted(value) else { continue }
            members[field.name] = value.json
        }
        return .object(members)
    }
}

extension EventFieldValue {
    /// The value as JSON (whole numbers of integer fields as numbers).
    package var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .integer(let integer): .number(Double(integer))
        case .json(let value): value
        }
    }
}
