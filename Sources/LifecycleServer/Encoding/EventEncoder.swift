import LifecycleCore

/// Events as a client posts them: the `applied` steps of a `moveTo` and the step a refusal names.
///
/// Optional members are written only when they differ from what an absent member means, so
/// `EventDecoder.decodeOne` reads every encoded event back as the same event.
enum EventEncoder {
    static func json(_ event: Event) -> JSONValue {
        var members: [String: JSONValue] = ["type": .string(event.type)]
        func put(_ key: String, _ value: JSONValue?) {
            if let value { members[key] = value }
        }
        switch event {
        case .launch(let background, let url, let source):
            put("background", background ? true : nil)
            put("url", url.map(JSONValue.string))
            put("sourceApplication", source.map(JSONValue.string))
        case .activate(let session):
            put("session", session.map(JSONValue.string))
        case .openURL(let url, let source, let annotation, let session):
            put("url", .string(url))
            put("sourceApplication", source.map(JSONValue.string))
            put("annotation", annotation)
            put("session", session.map(JSONValue.string))
        case .beginBackgroundTask(let name, let duration):
            put("name", name.map(JSONValue.string))
            put("duration", duration.map(JSONValue.number))
        case .endBackgroundTask(let task):
            put("task", .number(Double(task)))
        case .startBackgroundActivity(let mode), .stopBackgroundActivity(let mode):
            put("mode", .string(mode))
        case .remoteNotification(let payload, let contentAvailable):
            put("payload", payload)
            put("contentAvailable", contentAvailable ? true : nil)
        case .openScene(let session, let url, let source, let placement):
            put("session", session.map(JSONValue.string))
            put("url", url.map(JSONValue.string))
            put("sourceApplication", source.map(JSONValue.string))
            put("placement", placement == .split ? nil : .string(placement.rawValue))
        case .closeScene(let session), .disconnectScene(let session):
            put("session", .string(session))
        case .moveTo(let state):
            put("state", .string(state.rawValue))
        case .switchApp(let to):
            put("to", .string(to))
        case .interruptionBegan(let kind):
            put("kind", .string(kind.rawValue))
        case .interruptionEnded(let accepted):
            put("accepted", .bool(accepted))
        case .bannerNotification(let title):
            put("title", title.map(JSONValue.string))
        case .memoryPressure(let level):
            put("level", .string(level.rawValue))
        case .advanceTime(let seconds):
            put("seconds", .number(seconds))
        case .change(let kind, let value):
            put("kind", .string(kind.rawValue))
            put("value", value)
        case .terminate, .forceQuit, .crash, .backgroundFetch, .memoryWarning, .runLoop, .homeButton, .lock,
            .unlock, .notificationCenterOpened, .notificationCenterClosed, .reboot:
            break
        }
        return .object(members)
    }
}
