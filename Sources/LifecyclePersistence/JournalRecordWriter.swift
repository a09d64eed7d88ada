import LifecycleCore
import LifecycleJSON

/// Version-2 records of events and clock advances, written without `JSONEncoder`: one per accepted POST,
/// where `JSONEncoder` cost more than the events themselves. The text is what the synthesized `Codable`
/// conformances read (`{"<case>":{"<label>":value,...}}`, nil members left out, an unlabeled value as
/// `_0`), so `JournalRecordFormat.decode` reads these records and `JSONEncoder`'s alike.
package enum JournalRecordWriter {
    /// The record of `entry`, or nil for the kinds written through `Codable` (devices and apps: rare; inputs
    /// with live delegates' answers).
    package static func record(_ entry: JournaledInput, prefix: [UInt8]) -> [UInt8]? {
        var w: JSONWriter
        switch entry {
        case .events(let app, let now, let events, let key, let fingerprint):
            w = JSONWriter(appendingTo: prefix, reservingCapacity: 96 + events.count * 48)
            w.beginObject()
            w.field("events")
            w.beginObject()
            if let app { member("app", app, &w) }
            w.field("now")
            w.number(now)
            w.field("events")
            w.beginArray()
            for event in events { write(event, into: &w) }
            w.endArray()
            if let key { member("key", key, &w) }
            if let fingerprint {
                w.field("fingerprint")
                w.unsigned(fingerprint)
            }
            w.endObject()
            w.endObject()
        case .advance(let now):
            w = JSONWriter(appendingTo: prefix, reservingCapacity: 48)
            w.beginObject()
            w.field("advance")
            w.beginObject()
            w.field("now")
            w.number(now)
            w.endObject()
            w.endObject()
        case .device, .app, .deleteApp, .answered:
            return nil
        }
        w.endObject()  // closes the prefix's `{"v":2,"entry":`
        return w.bytes
    }

    /// `{"<case>":{"<label>":value,...}}`, derived from the catalogue: the case is the event's type and
    /// its labels the fields' names, as the catalogue keeps them; a run loop event is the one case with
    /// an unlabeled value (`{"runLoop":{"_0":"touch"}}`). Every member the event holds is written,
    /// defaults included: the synthesized `Codable` requires its non-optional members.
    private static func write(_ event: Event, into w: inout JSONWriter) {
        w.beginObject()
        if case .runLoop(let input) = event {
            w.field("runLoop")
            w.beginObject()
            w.field("_0")
            w.string(input.rawValue)
        } else {
            let (type, values) = (event.eventType, event.fieldValues)
            w.field(identifier: type.name)
            w.beginObject()
            for (index, name) in type.details.fieldNames.enumerated() {
                guard let value = values[index] else { continue }
                w.field(identifier: name)
                switch value {
                case .string(let text): w.string(text)
                case .bool(let flag): w.bool(flag)
                case .number(let number): w.number(number)
                case .integer(let integer): w.int(integer)
                case .json(let json): w.value(json)
                }
            }
        }
        w.endObject()  // the case's members
        w.endObject()
    }

    private static func member(_ name: StaticString, _ value: String?, _ w: inout JSONWriter) {
        guard let value else { return }
        w.field(name)
        w.string(value)
    }
}
