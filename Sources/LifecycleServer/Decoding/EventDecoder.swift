import LifecycleCore

/// Turns the body of `POST .../events` (one event object or an array of them) into core events.
enum EventDecoder {
    static let maxBatch = 1000
    /// Task ids are counted from 1 and stay far below this (2^53 − 1, the largest exactly representable whole number).
    static let maxTaskID = 9_007_199_254_740_991

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
        case "activate": return (.activate(session: try session(r)), ["session"])
        case "openURL":
            return (
                .openURL(
                    url: try r.requiredString("url"), sourceApplication: try r.string("sourceApplication"),
                    annotation: r.value("annotation"), session: try session(r)),
                ["url", "sourceApplication", "annotation", "session"]
            )
        case "openScene":
            return (
                .openScene(
                    session: try session(r), url: try r.string("url"),
                    sourceApplication: try r.string("sourceApplication"),
                    placement: try r.enumeration("placement", ScenePlacement.self) ?? .split),
                ["session", "url", "sourceApplication", "placement"]
            )
        case "closeScene":
            return (.closeScene(session: try requiredSession(r)), ["session"])
        case "disconnectScene":
            return (.disconnectScene(session: try requiredSession(r)), ["session"])
        case "moveTo":
            guard let state = try r.enumeration("state", AppState.self) else {
                throw .invalidField(
                    "state", "state (the state to move the app to) is required",
                    allowed: AppState.allCases.map(\.rawValue))
            }
            return (.moveTo(state: state), ["state"])
        case "terminate": return (.terminate, [])
        case "forceQuit": return (.forceQuit, [])
        case "crash": return (.crash, [])
        case "beginBackgroundTask":
            return (
                .beginBackgroundTask(
                    name: try r.string("name"), duration: try r.number("duration", in: 0...Device.maximumTime)),
                ["name", "duration"]
            )
        case "endBackgroundTask":
            guard let task = try r.integer("task", in: 1...Self.maxTaskID) else {
                throw .invalidField("task", "task (the task id, from 1 to \(Self.maxTaskID)) is required")
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
            guard let seconds = try r.number("seconds", in: 0...Device.maximumTime) else {
                throw .invalidField("seconds", "seconds (from 0 to \(Device.maximumTime.plainText)) is required")
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

    /// A scene session id: the same form as every other id.
    private static func session(_ r: FieldReader) throws(APIError) -> String? {
        guard let session = try r.string("session") else { return nil }
        try Identifier.validate(session, field: "session")
        return session
    }

    private static func requiredSession(_ r: FieldReader) throws(APIError) -> String {
        guard let session = try session(r) else {
            throw .invalidField("session", "session (the id of one of the app's scene sessions) is required")
        }
        return session
    }
}
