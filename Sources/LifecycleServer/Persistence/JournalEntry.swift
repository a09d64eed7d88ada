import LifecycleCore

/// One accepted input as it is journaled: enough, with the deterministic core, to rebuild everything.
enum JournalEntry {
    /// The device was created at wall-clock `wall` (the anchor of a realtime clock).
    case device(config: JSONValue, wall: Double)
    case app(id: String, config: JSONValue)
    case deleteApp(id: String)
    /// A batch of events, with the device time it was applied at and its idempotency key.
    case events(app: String?, now: Double, events: JSONValue, key: String?, fingerprint: UInt64?)
    /// A realtime clock fired deadlines up to `now`.
    case advance(now: Double)

    var bytes: [UInt8] {
        var members: [String: JSONValue]
        switch self {
        case .device(let config, let wall):
            members = ["op": "device", "config": config, "wall": .number(wall)]
        case .app(let id, let config):
            members = ["op": "app", "id": .string(id), "config": config]
        case .deleteApp(let id):
            members = ["op": "deleteApp", "id": .string(id)]
        case .events(let app, let now, let events, let key, let fingerprint):
            members = [
                "op": "events", "app": app.map(JSONValue.string) ?? .null, "now": .number(now), "events": events,
            ]
            if let key { members["key"] = .string(key) }
            // A 64-bit fingerprint does not fit a JSON number exactly: it travels as text.
            if let fingerprint { members["fp"] = .string(String(fingerprint)) }
        case .advance(let now):
            members = ["op": "advance", "now": .number(now)]
        }
        return JSONWriter.encode(.object(members))
    }

    init(bytes: [UInt8]) throws {
        let value = try JSONParser.parse(bytes)
        switch value["op"]?.stringValue {
        case "device":
            self = .device(config: value["config"] ?? .object([:]), wall: value["wall"]?.numberValue ?? 0)
        case "app":
            guard let id = value["id"]?.stringValue, let config = value["config"] else { throw CorruptRecord() }
            self = .app(id: id, config: config)
        case "deleteApp":
            guard let id = value["id"]?.stringValue else { throw CorruptRecord() }
            self = .deleteApp(id: id)
        case "events":
            guard let now = value["now"]?.numberValue, let events = value["events"] else { throw CorruptRecord() }
            self = .events(
                app: value["app"]?.stringValue, now: now, events: events, key: value["key"]?.stringValue,
                fingerprint: value["fp"]?.stringValue.flatMap { UInt64($0) })
        case "advance":
            guard let now = value["now"]?.numberValue else { throw CorruptRecord() }
            self = .advance(now: now)
        default:
            throw CorruptRecord()
        }
    }

    struct CorruptRecord: Error {}
}
