import LifecycleCore
import LifecycleJSON

/// `GET /v1/event-types`: the catalogue of events as JSON, for the dashboard's forms and for clients that
/// build requests from it (`EventCatalogue` in the spec).
package enum EventCatalogueEncoder {
    /// The body, encoded once: the catalogue does not change while the daemon runs.
    package static let body: [UInt8] = {
        var w = JSONWriter()
        w.beginObject()
        w.field("eventTypes")
        w.beginArray()
        for type in EventType.allCases { write(type.details, into: &w) }
        w.endArray()
        w.endObject()
        return w.bytes
    }()

    private static func write(_ details: EventDescription, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type")
        w.string(details.name)
        w.field("scope")
        w.string(details.scope.rawValue)
        w.field("summary")
        w.string(details.summary)
        w.field("fields")
        w.beginArray()
        for field in details.fields { write(field, into: &w) }
        w.endArray()
        if !details.example.isEmpty {
            w.field("example")
            w.value(.object(details.example))
        }
        w.endObject()
    }

    private static func write(_ field: EventField, into w: inout JSONWriter) {
        /// A number kind and its range (whole-number bounds are below 2^53: exact as doubles).
        func bounds(_ kind: String, _ minimum: Double, _ maximum: Double) {
            w.string(kind)
            w.field("minimum")
            w.number(minimum)
            w.field("maximum")
            w.number(maximum)
        }
        w.beginObject()
        w.field("name")
        w.string(field.name)
        w.field("kind")
        switch field.kind {
        case .text: w.string("text")
        case .identifier(let of):
            w.string("identifier")
            w.field("of")
            w.string(of.rawValue)
        case .flag: w.string("flag")
        case .number(let range): bounds("number", range.lowerBound, range.upperBound)
        case .wholeNumber(let range): bounds("wholeNumber", Double(range.lowerBound), Double(range.upperBound))
        case .choice(let options):
            w.string("choice")
            w.field("options")
            w.value(.array(options.map(JSONValue.string)))
        case .json: w.string("json")
        }
        w.field("required")
        w.bool(field.requirement == .required)
        if case .defaulted(let value) = field.requirement {
            w.field("default")
            w.value(value.json)
        }
        w.field("summary")
        w.string(field.summary)
        if !field.suggestions.isEmpty {
            w.field("suggestions")
            w.value(.array(field.suggestions.map(JSONValue.string)))
        }
        w.endObject()
    }
}
