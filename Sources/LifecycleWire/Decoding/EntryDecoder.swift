package import LifecycleCore

/// Timeline entries read back from the JSON `EntryEncoder` wrote: what a host keeps as served turned into
/// the core's values again, for stored formats that hold the domain's values (device snapshots). Each kind
/// reads the members `EntryEncoder` writes for it; a test holds the two together over random walks.
package enum EntryDecoder {
    /// The entry, or nil when `json` is not one `EntryEncoder` could have written.
    package static func entry(_ json: JSONValue) -> TimelineEntry? {
        guard let seq = json["seq"]?.numberValue.flatMap(UInt64.init(exactly:)),
            let time = json["time"]?.numberValue, let app = json["app"], let kind = json["kind"]?.stringValue
        else { return nil }
        let body: TimelineEntry.Body?
        var sceneState: SceneState?
        switch kind {
        case "callback":
            if let raw = json["sceneState"] {
                guard let state = choice(raw, SceneState.self) else { return nil }
                sceneState = state
            }
            body = zip4(
                json["selector"]?.stringValue, choice(json["state"], AppState.self), object(json["args"]),
                json["duration"]?.numberValue
            ).map { TimelineEntry.Body.callback(selector: $0, state: $1, args: $2, duration: $3) }
        case "notification":
            guard let name = json["name"]?.stringValue, let userInfo = object(json["userInfo"]),
                let queuedAt = optional(json["queuedAt"], \.numberValue),
                let coalesced = optional(json["coalesced"], integer)
            else { return nil }
            body = .notification(name: name, userInfo: userInfo, queuedAt: queuedAt, coalesced: coalesced)
        case "state":
            body = pair(choice(json["from"], AppState.self), choice(json["to"], AppState.self)).map {
                .state(from: $0, to: $1)
            }
        case "termination":
            // Its code, signal and category are its reason's: only whether it was in front is read.
            guard let reason = choice(json["reason"], TerminationReason.self),
                let notified = json["notified"]?.boolValue, let foreground = optional(json["foreground"], \.boolValue)
            else { return nil }
            body = .termination(reason: reason, notified: notified, foreground: foreground)
        case "runloop":
            guard let event = choice(json["event"], RunLoopEvent.self), let delivered = json["delivered"]?.boolValue,
                let coalesced = optional(json["coalesced"], integer)
            else { return nil }
            body = .runLoop(event: event, delivered: delivered, coalesced: coalesced)
        case "device":
            body = pair(json["event"]?.stringValue, object(json["detail"])).map { .device(event: $0, detail: $1) }
        case "sceneState":
            body = pair(choice(json["from"], SceneState.self), choice(json["to"], SceneState.self)).map {
                .sceneState(from: $0, to: $1)
            }
        case "backgroundTask":
            guard let event = choice(json["event"], BackgroundTaskEvent.self), let task = json["task"].flatMap(integer),
                let name = nullable(json["name"])
            else { return nil }
            body = .backgroundTask(event: event, task: task, name: name)
        case "resource":
            body = pair(choice(json["resource"], AppResource.self), choice(json["event"], ResourceEvent.self)).map {
                .resource(resource: $0, event: $1)
            }
        case "snapshot":
            body = pair(strings(json["visible"]), strings(json["hidden"])).map { .snapshot(visible: $0, hidden: $1) }
        case "launchImage":
            body = json["image"]?.stringValue.map { .launchImage(image: $0) }
        case "wakeRefused":
            body = pair(choice(json["wake"], Wake.self), choice(json["reason"], WakeRefusal.self)).map {
                .wakeRefused(wake: $0, reason: $1)
            }
        case "transfer":
            guard let event = choice(json["event"], TransferEvent.self),
                let session = json["urlSession"]?.stringValue, let task = choice(json["task"], TransferTask.self),
                let name = json["name"]?.stringValue
            else { return nil }
            body = .transfer(event: event, session: session, task: task, name: name)
        case "scheduledTask":
            guard let event = choice(json["event"], ScheduledTaskEvent.self),
                let identifier = json["identifier"]?.stringValue,
                let taskKind = choice(json["taskKind"], ScheduledTaskKind.self),
                let reason = optional(json["reason"], { choice($0, ScheduledTaskReason.self) }),
                let progress = optional(json["progress"], \.numberValue)
            else { return nil }
            body = .scheduledTask(
                event: event, identifier: identifier, kind: taskKind, reason: reason, progress: progress)
        default:
            return nil
        }
        guard let body, let owner = nullable(app) else { return nil }
        let session: String?? = json["session"].map(\.stringValue)
        if case .some(.none) = session { return nil }
        return TimelineEntry(
            seq: seq, time: time, app: owner, body: body, session: session ?? nil, sceneState: sceneState)
    }

    private static func choice<Choice: RawRepresentable<String>>(_ value: JSONValue?, _: Choice.Type) -> Choice? {
        value?.stringValue.flatMap(Choice.init(rawValue:))
    }

    private static func object(_ value: JSONValue?) -> [String: JSONValue]? {
        if case .object(let members)? = value { members } else { nil }
    }

    private static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let items)? = value else { return nil }
        let texts = items.compactMap(\.stringValue)
        return texts.count == items.count ? texts : nil
    }

    private static func integer(_ value: JSONValue) -> Int? { value.numberValue.flatMap(Int.init(exactly:)) }

    /// A member written only when the value is there: `.some(nil)` when absent, nil when of the wrong type.
    private static func optional<Value>(_ value: JSONValue?, _ read: (JSONValue) -> Value?) -> Value?? {
        guard let value else { return .some(nil) }
        return read(value).map { .some($0) }
    }

    /// A string member written as `null` when absent.
    private static func nullable(_ value: JSONValue?) -> String?? {
        switch value {
        case .null?: .some(nil)
        case .string(let text)?: .some(text)
        default: nil
        }
    }

    private static func pair<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }

    private static func zip4<A, B, C, D>(_ a: A?, _ b: B?, _ c: C?, _ d: D?) -> (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }
}
