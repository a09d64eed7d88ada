import LifecycleCore
import LifecycleJSON
import LifecycleWire

/// The journal records of the first release (format version 1): the request JSON as posted, read with the
/// API's decoders as they were then (`replaying`: checks added since do not apply to what was accepted).
enum JournalRecordVersion1 {
    /// The journal entry of a version 1 record, decoded as the first release decoded it.
    static func entry(_ value: JSONValue) throws -> JournaledInput {
        switch value["op"]?.stringValue {
        case "device":
            let request = try DeviceRequest(value["config"] ?? .object([:]), replaying: true)
            return .device(configuration: request.configuration, wall: value["wall"]?.numberValue ?? 0)
        case "app":
            guard let id = value["id"]?.stringValue, let config = value["config"] else {
                throw CorruptRecord()
            }
            return .app(id: id, configuration: try AppRequest(config, replaying: true).configuration)
        case "deleteApp":
            guard let id = value["id"]?.stringValue else { throw CorruptRecord() }
            return .deleteApp(id: id)
        case "events":
            guard let now = value["now"]?.numberValue, let events = value["events"] else {
                throw CorruptRecord()
            }
            let app = value["app"]?.stringValue
            return .events(
                app: app, now: now, events: try EventDecoder.decode(events, deviceOnly: app == nil, replaying: true),
                key: value["key"]?.stringValue.map { PathScopedKey.split($0).key },
                fingerprint: value["fp"]?.stringValue.flatMap { UInt64($0) })
        case "advance":
            guard let now = value["now"]?.numberValue else { throw CorruptRecord() }
            return .advance(now: now)
        default:
            throw CorruptRecord()
        }
    }
}
