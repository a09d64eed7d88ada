import LifecycleCore

/// Turns the body of `POST .../events` (one event object or an array of them) into core events.
enum EventDecoder {
    static let maxBatch = 1000

    /// `deviceOnly`: the device path, which takes device events only.
    /// `replaying`: a journaled body, read as it was accepted (see `FieldReader.replaying`).
    static func decode(_ body: JSONValue, deviceOnly: Bool, replaying: Bool = false) throws(APIError) -> [Event] {
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

    static func decodeOne(_ value: JSONValue, deviceOnly: Bool, replaying: Bool = false) throws(APIError) -> Event {
        let reader = try FieldReader(value, what: "an event", replaying: replaying)
        let type = try reader.requiredString("type")
        let validTypes = deviceOnly ? Event.deviceTypes : Event.allTypes
        guard validTypes.contains(type) else {
            if deviceOnly, Event.appTypes.contains(type) {
                throw .unknownEvent(
                    type, validTypes: validTypes,
                    detail: "\(type) is an app event: post it to /v1/apps/{id}/events; this path takes device events")
            }
            throw .unknownEvent(type, validTypes: validTypes)
        }
        let (event, fields) = try decode(type, reader)
        try reader.rejectUnknown(allowed: ["type"] + fields)
        return event
    }

    private static func decode(_ type: String, _ r: FieldReader) throws(APIError) -> (Event, [String]) {
        if let input = RunLoopEvent(rawValue: type) { return (.runLoop(input), []) }
        switch type {
        case "launch":
            return (
                .launch(
                    background: try r.bool("background") ?? false, url: try r.string("url"),
                    sourceApplication: try r.string("sourceApplication")),
                ["background", "url", "sourceApplication"]
            )
        case "activate": return (.activate, [])
        case "openURL":
            return (
                .openURL(
                    url: try r.requiredString("url"), sourceApplication: try r.string("sourceApplication"),
                    annotation: r.value("annotation")),
                ["url", "sourceApplication", "annotation"]
            )
        case "terminate": return (.terminate, [])
        case "forceQuit": return (.forceQuit, [])
        case "crash": return (.crash, [])
        case "beginBackgroundTask":
            return (
                .beginBackgroundTask(name: try r.string("name"), duration: try r.nonNegative("duration")),
                ["name", "duration"]
            )
        case "endBackgroundTask":
            guard let task = try r.integer("task") else {
                throw .invalidField("task", "task (the task id) is required")
            }
            return (.endBackgroundTask(task: task), ["task"])
        case "startBackgroundActivity":
            return (.startBackgroundActivity(mode: try r.requiredString("mode")), ["mode"])
        case "stopBackgroundActivity":
            return (.stopBackgroundActivity(mode: try r.requiredString("mode")), ["mode"])
        case "remoteNotification":
            return (
                .remoteNotification(
                    payload: r.value("payload"), contentAvailable: try r.bool("contentAvailable") ?? false),
                ["payload", "contentAvailable"]
            )
        case "backgroundFetch": return (.backgroundFetch, [])
        case "memoryWarning": return (.memoryWarning, [])
        case "homeButton": return (.homeButton, [])
        case "switchApp":
            let to = try r.requiredString("to")
            try Identifier.validate(to, field: "to")
            return (.switchApp(to: to), ["to"])
        case "lock": return (.lock, [])
        case "unlock": return (.unlock, [])
        case "interruptionBegan":
            guard let kind = try r.enumeration("kind", InterruptionKind.self) else {
                throw .invalidField("kind", "kind is required", allowed: InterruptionKind.allCases.map(\.rawValue))
            }
            return (.interruptionBegan(kind: kind), ["kind"])
        case "interruptionEnded":
            guard let accepted = try r.bool("accepted") else {
                throw .invalidField("accepted", "accepted (true: the user answered; false: declined) is required")
            }
            return (.interruptionEnded(accepted: accepted), ["accepted"])
        case "bannerNotification": return (.bannerNotification(title: try r.string("title")), ["title"])
        case "notificationCenterOpened": return (.notificationCenterOpened, [])
        case "notificationCenterClosed": return (.notificationCenterClosed, [])
        case "memoryPressure":
            guard let level = try r.enumeration("level", MemoryPressureLevel.self) else {
                throw .invalidField("level", "level is required", allowed: MemoryPressureLevel.allCases.map(\.rawValue))
            }
            return (.memoryPressure(level: level), ["level"])
        case "reboot": return (.reboot, [])
        case "advanceTime":
            guard let seconds = try r.nonNegative("seconds") else {
                throw .invalidField("seconds", "seconds (0 or more) is required")
            }
            return (.advanceTime(seconds: seconds), ["seconds"])
        case "change":
            guard let kind = try r.enumeration("kind", ChangeKind.self) else {
                throw .invalidField("kind", "kind is required", allowed: ChangeKind.allCases.map(\.rawValue))
            }
            return (.change(kind: kind, value: r.value("value")), ["kind", "value"])
        default:
            throw .unknownEvent(type, validTypes: Event.allTypes)
        }
    }
}
