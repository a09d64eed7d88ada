package import LifecycleCore

/// Turns the body of `POST .../events` (one event object or an array of them) into core events, each as
/// its catalogue entry describes it (`EventType.details`).
package enum EventDecoder {
    static let maxBatch = 1000

    /// `deviceOnly`: the device path, which takes device events only.
    /// `replaying`: a journaled body, read as it was accepted (see `FieldReader.replaying`).
    package static func decode(_ body: JSONValue, deviceOnly: Bool, replaying: Bool = false) throws(APIError) -> [Event]
    {
        let items: [JSONValue]
        if case .array(let array) = body {
            guard !array.isEmpty, array.count <= maxBatch else {
                throw .invalidField("body", "a batch holds 1 to \(maxBatch) events, not \(array.count)")
            }
            items = array
        } else {
            items = [body]
        }
        var events: [Event] = []
        events.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do {
                events.append(try decodeOne(item, deviceOnly: deviceOnly, replaying: replaying))
            } catch var error {
                if items.count > 1 { error.extra["index"] = .number(Double(index)) }
                throw error
            }
        }
        return events
    }

    package static func decodeOne(_ value: JSONValue, deviceOnly: Bool, replaying: Bool = false) throws(APIError)
        -> Event
    {
        let reader = try FieldReader(value, what: "an event", replaying: replaying)
        let name = try reader.requiredString("type")
        let validTypes = deviceOnly ? Event.deviceTypes : Event.allTypes
        guard let type = EventType(name: name), !deviceOnly || type.isDeviceEvent else {
            if deviceOnly, Event.appTypes.contains(name) {
                throw .unknownEvent(
                    name, validTypes: validTypes,
                    detail: "\(name) is an app event: post it to /v1/apps/{id}/events; this path takes device events")
            }
            throw .unknownEvent(name, validTypes: validTypes)
        }
        let details = type.details
        var values = EventFieldValues()
        for (index, field) in details.fields.enumerated() {
            values[index] = try read(field, reader)
        }
        try reader.rejectUnknown(allowed: details.fieldNames, besides: "type")
        do {
            return try details.make(values)
        } catch {
            let field = details.fields[error.index]
            throw .invalidField(
                field.name, "\(field.name) (\(field.summary)\(field.kind.range)) is required",
                allowed: field.kind.choices)
        }
    }

    /// The field's value as the event holds it; its default when absent.
    private static func read(_ field: EventField, _ r: FieldReader) throws(APIError) -> EventFieldValue? {
        let name = field.name
        let value: EventFieldValue?
        switch field.kind {
        case .text: value = try r.string(name).map(EventFieldValue.string)
        case .identifier:
            let id = try r.string(name)
            if let id { try Identifier.validate(id, field: name) }
            value = id.map(EventFieldValue.string)
        case .flag: value = try r.bool(name).map(EventFieldValue.bool)
        case .number(let range): value = try r.number(name, in: range).map(EventFieldValue.number)
        case .wholeNumber(let range): value = try r.integer(name, in: range).map(EventFieldValue.integer)
        case .choice(let options): value = try r.choice(name, options).map(EventFieldValue.string)
        case .json: value = r.value(name).map(EventFieldValue.json)
        }
        if value == nil, case .defaulted(let fallback) = field.requirement { return fallback }
        return value
    }
}

extension EventFieldError {
    /// The position of the field in the event's description.
    package var index: Int {
        switch self {
        case .missing(let index), .wrongKind(let index): index
        }
    }
}

extension EventField.Kind {
    /// `, from 0 to 1e12`: the range a required number's message names.
    package var range: String {
        switch self {
        case .number(let range): ", from \(range.lowerBound.plainText) to \(range.upperBound.plainText)"
        case .wholeNumber(let range): ", from \(range.lowerBound) to \(range.upperBound)"
        case .text, .identifier, .flag, .choice, .json: ""
        }
    }

    /// The values a choice allows (none for other kinds).
    var choices: [String] {
        if case .choice(let options) = self { return options }
        return []
    }
}
