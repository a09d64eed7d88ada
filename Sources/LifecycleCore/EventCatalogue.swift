/// The catalogue of events: for each wire type, whom it targets and its fields with their types,
/// defaults and ranges. It is the one description of an event from which the request decoder, the
/// encoder, the allowed-field checks, the journal's records and `GET /v1/event-types` are derived
/// (docs/ARCHITECTURE.md, "How to add an event").
public enum EventType: Int, Sendable, CaseIterable {
    // App events.
    case launch, activate, openURL, terminate, forceQuit, crash
    case beginBackgroundTask, endBackgroundTask, startBackgroundActivity, stopBackgroundActivity
    case remoteNotification, tapNotification, backgroundFetch, memoryWarning, prewarm
    // The main run loop's input (`RunLoopEvent`).
    case touch, remoteControl, shake, motion, location, redraw
    // Scenes (LIFECYCLE §11) and the shortest path to a state.
    case openScene, closeScene, disconnectScene, moveTo
    // Device events.
    case homeButton, switchApp, lock, unlock, interruptionBegan, interruptionEnded, callEnded, bannerNotification
    case notificationCenterOpened, notificationCenterClosed, appSwitcherOpened, appSwitcherClosed, memoryPressure,
        reboot
    case advanceTime, change
    // App events added since.
    case backgroundAppRefreshSwitch
    case finishTransfer, cancelContinuedTask
    // Device events added since.
    case launchTask

    /// The event's description: one entry of the catalogue, built once. (The raw value is the case's
    /// position, so this is an array's element: events are decoded, applied and journaled by the million.)
    @inline(__always)
    public var details: EventDescription { Self.catalogue[rawValue] }

    /// The wire name: the case's name.
    public var name: String { Self.names[rawValue] }

    /// Whether the event targets the device rather than one app (asked of every event applied).
    public var isDeviceEvent: Bool { Self.deviceScoped[rawValue] }

    /// The type of that wire name, if there is one.
    public init?(name: String) {
        guard let type = Self.byName[name] else { return nil }
        self = type
    }

    private static let catalogue: [EventDescription] = allCases.map(describe)
    private static let names: [String] = catalogue.map(\.name)
    private static let deviceScoped: [Bool] = catalogue.map(\.isDeviceEvent)
    private static let byName: [String: EventType] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    /// Task ids are counted from 1 and stay far below this (2^53 − 1, the largest exactly representable
    /// whole number).
    public static let maxTaskID = 9_007_199_254_740_991

    // The catalogue. Each entry: whom the event targets, what it stands for, its fields in order, and
    // how the fields' values make the event; `Event.eventType` and `Event.fieldValues` are the inverse.
    private static func describe(_ type: EventType) -> EventDescription {
        typealias F = EventField
        let session = F("session", .identifier(.session), .optional, "the scene session (LIFECYCLE §11.8)")
        let url = F("url", .text, .optional, "the URL the app is asked to open")
        let source = F("sourceApplication", .text, .optional, "the bundle id of the app that sent the URL")
        switch type {
        case .launch:
            return .init(
                type, .app, "A tap on the icon (or a launch in the background) of an app that is not running",
                [F("background", .flag, .defaulted(.bool(false)), "launch into the background"), url, source]
            ) { v throws(EventFieldError) in
                .launch(background: try v.bool(0), url: v.string(1), sourceApplication: v.string(2))
            }
        case .activate:
            return .init(type, .app, "A tap on the icon or a pick in the app switcher: launches if needed", [session]) {
                v throws(EventFieldError) in .activate(session: v.string(0))
            }
        case .openURL:
            return .init(
                type, .app, "Another app opens a URL this app handles",
                [
                    F("url", .text, .required, "the URL the app is asked to open"), source,
                    F("annotation", .json, .optional, "any JSON the sender attaches"), session,
                ],
                example: ["url": "app://open"]
            ) { v throws(EventFieldError) in
                .openURL(
                    url: try v.requiredString(0), sourceApplication: v.string(1), annotation: v.json(2),
                    session: v.string(3))
            }
        case .terminate: return .init(type, .app, "The system ends the app", []) { _ in .terminate }
        case .forceQuit:
            return .init(type, .app, "The user swipes the app away in the app switcher", []) { _ in .forceQuit }
        case .crash: return .init(type, .app, "The app crashes", []) { _ in .crash }
        case .beginBackgroundTask:
            return .init(
                type, .app, "The app asks for time to finish a task in the background",
                [
                    F("name", .text, .optional, "the task's name"),
                    F("duration", .number(0...Device.maximumTime), .optional, "seconds until the app ends it itself"),
                ]
            ) { v throws(EventFieldError) in .beginBackgroundTask(name: v.string(0), duration: v.number(1)) }
        case .endBackgroundTask:
            return .init(
                type, .app, "The app ends a background task",
                [F("task", .wholeNumber(1...maxTaskID), .required, "the task id that beginBackgroundTask gave")],
                example: ["task": 1]
            ) { v throws(EventFieldError) in .endBackgroundTask(task: try v.requiredInteger(0)) }
        case .startBackgroundActivity, .stopBackgroundActivity:
            let mode = F(
                "mode", .text, .required, "a UIBackgroundModes value the app declares",
                suggestions: BackgroundMode.continuous.sorted())
            return .init(
                type, .app,
                type == .startBackgroundActivity
                    ? "The app starts an activity that keeps it running (audio, location, ...)"
                    : "The app stops that activity",
                [mode]
            ) { v throws(EventFieldError) in
                type == .startBackgroundActivity
                    ? .startBackgroundActivity(mode: try v.requiredString(0))
                    : .stopBackgroundActivity(mode: try v.requiredString(0))
            }
        case .remoteNotification:
            return .init(
                type, .app, "A push notification arrives",
                [
                    F("payload", .json, .optional, "the notification's payload"),
                    F("contentAvailable", .flag, .defaulted(.bool(false)), "content-available: wake the app"),
                ]
            ) { v throws(EventFieldError) in
                .remoteNotification(payload: v.json(0), contentAvailable: try v.bool(1))
            }
        case .tapNotification:
            return .init(
                type, .app, "A tap on the app's notification: launches or resumes the app with it",
                [
                    F(
                        "source", .choice(NotificationSource.allCases.map(\.rawValue)), .defaulted(.string("banner")),
                        "where the notification shows: a banner, an alert, or an entry of Notification Center"),
                    F("payload", .json, .optional, "the notification's payload, handed to the app"),
                ]
            ) { v throws(EventFieldError) in
                .tapNotification(source: try v.choice(0, NotificationSource.self), payload: v.json(1))
            }
        case .backgroundFetch:
            return .init(type, .app, "The system gives the app a background fetch", []) { _ in .backgroundFetch }
        case .prewarm:
            return .init(
                type, .app, "The system prewarms an app that is not running (iOS 15 and later), then suspends it",
                [
                    F(
                        "stage", .choice(PrewarmStage.allCases.map(\.rawValue)), .optional,
                        "how far its launch runs: main (no delegate method) or didFinishLaunching (the launch "
                            + "callbacks, no scene); absent: didFinishLaunching for a scene app, main otherwise")
                ]
            ) { v throws(EventFieldError) in .prewarm(stage: try v.optionalChoice(0, PrewarmStage.self)) }
        case .memoryWarning:
            return .init(type, .app, "A memory warning, as Xcode's \"Simulate Memory Warning\"", []) { _ in
                .memoryWarning
            }
        case .touch:
            return .init(type, .app, "A touch (main run loop input, LIFECYCLE §8)", []) { _ in .runLoop(.touch) }
        case .remoteControl:
            return .init(type, .app, "A remote-control event (main run loop input)", []) { _ in .runLoop(.remoteControl)
            }
        case .shake: return .init(type, .app, "A shake (main run loop input)", []) { _ in .runLoop(.shake) }
        case .motion:
            return .init(type, .app, "Accelerometer input (main run loop input)", []) { _ in .runLoop(.motion) }
        case .location:
            return .init(type, .app, "A location update (main run loop input)", []) { _ in .runLoop(.location) }
        case .redraw: return .init(type, .app, "A redraw (main run loop input)", []) { _ in .runLoop(.redraw) }
        case .openScene:
            return .init(
                type, .scene, "A new window with a new scene session",
                [
                    F(
                        "session", .identifier(.session), .optional,
                        "the new session's id (a server-made one if absent)"),
                    url, source,
                    F(
                        "placement", .choice(ScenePlacement.allCases.map(\.rawValue)),
                        .defaulted(.string(ScenePlacement.split.rawValue)),
                        "beside the foreground scenes or in their place"),
                ]
            ) { v throws(EventFieldError) in
                .openScene(
                    session: v.string(0), url: v.string(1), sourceApplication: v.string(2),
                    placement: try v.choice(3, ScenePlacement.self))
            }
        case .closeScene, .disconnectScene:
            let session = F("session", .identifier(.session), .required, "the id of one of the app's scene sessions")
            return .init(
                type, .scene,
                type == .closeScene
                    ? "The user closes that window or swipes its card away (LIFECYCLE §11.9)"
                    : "The system reclaims that background scene (LIFECYCLE §11.9)",
                [session]
            ) { v throws(EventFieldError) in
                type == .closeScene
                    ? .closeScene(session: try v.requiredString(0)) : .disconnectScene(session: try v.requiredString(0))
            }
        case .moveTo:
            return .init(
                type, .app, "The shortest sequence of events that brings the app to a state",
                [F("state", .choice(AppState.allCases.map(\.rawValue)), .required, "the state to move the app to")]
            ) { v throws(EventFieldError) in .moveTo(state: try v.choice(0, AppState.self)) }
        case .homeButton: return .init(type, .device, "The Home button (or the gesture)", []) { _ in .homeButton }
        case .switchApp:
            return .init(
                type, .device, "The app switcher brings another app of the device to the front",
                [F("to", .identifier(.app), .required, "the id of the app to bring to the front")]
            ) { v throws(EventFieldError) in .switchApp(to: try v.requiredString(0)) }
        case .lock: return .init(type, .device, "The device locks", []) { _ in .lock }
        case .unlock: return .init(type, .device, "The device unlocks", []) { _ in .unlock }
        case .interruptionBegan:
            return .init(
                type, .device, "An alert-style interruption: a call, an SMS, an alarm",
                [F("kind", .choice(InterruptionKind.allCases.map(\.rawValue)), .required, "what interrupts")]
            ) { v throws(EventFieldError) in .interruptionBegan(kind: try v.choice(0, InterruptionKind.self)) }
        case .interruptionEnded:
            return .init(
                type, .device, "The interruption ends",
                [F("accepted", .flag, .required, "true: the user answered; false: declined")]
            ) { v throws(EventFieldError) in .interruptionEnded(accepted: try v.bool(0)) }
        case .callEnded:
            return .init(type, .device, "The call the user answered hangs up", []) { _ in .callEnded }
        case .bannerNotification:
            return .init(
                type, .device, "A banner slides down over the app in front",
                [F("title", .text, .optional, "the banner's title")]
            ) { v throws(EventFieldError) in .bannerNotification(title: v.string(0)) }
        case .notificationCenterOpened:
            return .init(type, .device, "Notification Center opens", []) { _ in .notificationCenterOpened }
        case .notificationCenterClosed:
            return .init(type, .device, "Notification Center closes", []) { _ in .notificationCenterClosed }
        case .appSwitcherOpened:
            return .init(type, .device, "A double press of Home shows the app switcher", []) { _ in .appSwitcherOpened }
        case .appSwitcherClosed:
            return .init(type, .device, "The app switcher closes over the app in front", []) { _ in .appSwitcherClosed }
        case .memoryPressure:
            return .init(
                type, .device, "The system runs low on memory",
                [F("level", .choice(MemoryPressureLevel.allCases.map(\.rawValue)), .required, "how low")]
            ) { v throws(EventFieldError) in .memoryPressure(level: try v.choice(0, MemoryPressureLevel.self)) }
        case .reboot: return .init(type, .device, "The device restarts: every app ends", []) { _ in .reboot }
        case .advanceTime:
            return .init(
                type, .device, "The device clock moves on: deadlines that fall due fire in order",
                [F("seconds", .number(0...Device.maximumTime), .required, "how far the clock moves")],
                example: ["seconds": 10]
            ) { v throws(EventFieldError) in .advanceTime(seconds: try v.requiredNumber(0)) }
        case .change:
            return .init(
                type, .device, "A device change apps hear about as a notification (LIFECYCLE §7)",
                [
                    F("kind", .choice(ChangeKind.allCases.map(\.rawValue)), .required, "what changed"),
                    F("value", .json, .optional, "the new value, for kinds that have one"),
                ]
            ) { v throws(EventFieldError) in .change(kind: try v.choice(0, ChangeKind.self), value: v.json(1)) }
        case .backgroundAppRefreshSwitch:
            return .init(
                type, .app, "The user turns the app's own Background App Refresh switch in Settings",
                [F("enabled", .flag, .required, "true: on; false: off")]
            ) { v throws(EventFieldError) in .backgroundAppRefreshSwitch(enabled: try v.bool(0)) }
        case .finishTransfer:
            return .init(
                type, .app,
                "The system ends one of the app's background transfers (iOS 7 and later): it wakes or relaunches the "
                    + "app in the background to tell it, unless the app runs",
                [
                    F("name", .identifier(.transfer), .required, "the name of a transfer the app started"),
                    F(
                        "outcome", .choice(TransferOutcome.allCases.map(\.rawValue)), .defaulted(.string("success")),
                        "how the transfer ended"),
                ]
            ) { v throws(EventFieldError) in
                .finishTransfer(name: try v.requiredString(0), outcome: try v.choice(1, TransferOutcome.self))
            }
        case .cancelContinuedTask:
            return .init(
                type, .app, "The user cancels the app's continued processing task from its Live Activity (iOS 26)",
                [F("identifier", .text, .required, "the task's identifier")],
                example: ["identifier": "com.example.export.1"]
            ) { v throws(EventFieldError) in .cancelContinuedTask(identifier: try v.requiredString(0)) }
        case .launchTask:
            return .init(
                type, .device, "The system runs an app's pending BGTaskScheduler request now (iOS 13)",
                [
                    F("app", .identifier(.app), .required, "the id of the app whose request runs"),
                    F("identifier", .text, .required, "the identifier of the pending request"),
                ],
                example: ["identifier": "com.example.refresh"]
            ) { v throws(EventFieldError) in
                .launchTask(app: try v.requiredString(0), identifier: try v.requiredString(1))
            }
        }
    }
}

/// Whom an event targets.
public enum EventScope: String, Sendable {
    /// One app, posted on its path.
    case app
    /// One scene of a scene-based app, posted on the app's path.
    case scene
    /// The device: posted on its path, or on one of its apps' paths.
    case device
}

/// One event type: the catalogue's entry (a class: it is shared, never copied).
public final class EventDescription: Sendable {
    public let type: EventType
    /// The wire name (`type`), which is also the name of the `EventType` case and of the `Event` case.
    public let name: String
    public let scope: EventScope
    /// What the event stands for, in a sentence.
    public let summary: String
    public let fields: [EventField]
    /// The fields' names, in order.
    public let fieldNames: [String]
    /// Field values a form may start with (a whole example event, less its type).
    public let example: [String: JSONValue]
    /// The event from its fields' values (in `fields` order, defaults applied); throws for a required
    /// field that is missing or a value of the wrong kind.
    public let make: @Sendable (EventFieldValues) throws(EventFieldError) -> Event

    init(
        _ type: EventType, _ scope: EventScope, _ summary: String, _ fields: [EventField],
        example: [String: JSONValue] = [:],
        make: @escaping @Sendable (EventFieldValues) throws(EventFieldError) -> Event
    ) {
        precondition(fields.count <= EventFieldValues.capacity, "an event has at most 4 fields")
        self.type = type
        self.name = String(describing: type)
        self.scope = scope
        self.summary = summary
        self.fields = fields
        self.fieldNames = fields.map(\.name)
        self.example = example
        self.make = make
    }

    /// Whether the event targets the device rather than one app.
    public var isDeviceEvent: Bool { scope == .device }
}

/// One field of an event (a class: shared by the catalogue, never copied).
public final class EventField: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Any string.
        case text
        /// An id (`[A-Za-z0-9._-]{1,128}`) of another app of the device, of one of the app's scene sessions or of
        /// its background transfers.
        case identifier(IdentifierOf)
        /// `true` or `false`.
        case flag
        /// A number within the range.
        case number(ClosedRange<Double>)
        /// A whole number within the range.
        case wholeNumber(ClosedRange<Int>)
        /// One of the strings.
        case choice([String])
        /// Any JSON value, `null` included.
        case json
    }

    /// `transfer`: the name of one of the app's background transfers (LIFECYCLE §14).
    public enum IdentifierOf: String, Sendable { case app, session, transfer }

    public enum Requirement: Sendable, Equatable {
        case required
        /// Absent means nil.
        case optional
        /// Absent means this value; the encoder leaves it out.
        case defaulted(EventFieldValue)
    }

    public let name: String
    public let kind: Kind
    public let requirement: Requirement
    /// What the field holds, in a few words: a form's label and an error's explanation.
    public let summary: String
    /// Values a form may offer (the field still takes any value of its kind).
    public let suggestions: [String]

    init(_ name: String, _ kind: Kind, _ requirement: Requirement, _ summary: String, suggestions: [String] = []) {
        self.name = name
        self.kind = kind
        self.requirement = requirement
        self.summary = summary
        self.suggestions = suggestions
    }
}

/// The value of one field, typed as the event holds it.
public enum EventFieldValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case number(Double)
    case integer(Int)
    case json(JSONValue)
}

extension EventFieldValue {
    var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }
    var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }
    var numberValue: Double? {
        if case .number(let value) = self { value } else { nil }
    }
    var integerValue: Int? {
        if case .integer(let value) = self { value } else { nil }
    }
    var jsonValue: JSONValue? {
        if case .json(let value) = self { value } else { nil }
    }
}

/// Why the values of an event's fields make no event (the decoder names the field).
public enum EventFieldError: Error, Equatable {
    /// The field at this position is required and absent.
    case missing(Int)
    /// The field at this position holds a value of another kind (or outside its choices).
    case wrongKind(Int)
}

/// The values of an event's fields in catalogue order: up to four, held inline (no allocation).
public struct EventFieldValues: Sendable, Equatable {
    static let capacity = 4
    private var v0, v1, v2, v3: EventFieldValue?

    public init(
        _ v0: EventFieldValue? = nil, _ v1: EventFieldValue? = nil, _ v2: EventFieldValue? = nil,
        _ v3: EventFieldValue? = nil
    ) {
        (self.v0, self.v1, self.v2, self.v3) = (v0, v1, v2, v3)
    }

    public subscript(index: Int) -> EventFieldValue? {
        get {
            switch index {
            case 0: v0
            case 1: v1
            case 2: v2
            case 3: v3
            default: nil
            }
        }
        set {
            switch index {
            case 0: v0 = newValue
            case 1: v1 = newValue
            case 2: v2 = newValue
            case 3: v3 = newValue
            default: preconditionFailure("an event has at most \(Self.capacity) fields")
            }
        }
    }

    func string(_ i: Int) -> String? { self[i]?.stringValue }
    func number(_ i: Int) -> Double? { self[i]?.numberValue }
    func json(_ i: Int) -> JSONValue? { self[i]?.jsonValue }

    func requiredString(_ i: Int) throws(EventFieldError) -> String { try required(i, \.stringValue) }
    func bool(_ i: Int) throws(EventFieldError) -> Bool { try required(i, \.boolValue) }
    func requiredNumber(_ i: Int) throws(EventFieldError) -> Double { try required(i, \.numberValue) }
    func requiredInteger(_ i: Int) throws(EventFieldError) -> Int { try required(i, \.integerValue) }

    /// The value at `i` as `extract` reads it: missing when absent, of the wrong kind when it reads nil.
    private func required<T>(_ i: Int, _ extract: (EventFieldValue) -> T?) throws(EventFieldError) -> T {
        guard let value = self[i] else { throw .missing(i) }
        guard let typed = extract(value) else { throw .wrongKind(i) }
        return typed
    }

    /// The choice at `i`; nil when absent.
    func optionalChoice<E: RawRepresentable>(_ i: Int, _ type: E.Type) throws(EventFieldError) -> E?
    where E.RawValue == String {
        guard self[i] != nil else { return nil }
        return try choice(i, type)
    }

    func choice<E: RawRepresentable>(_ i: Int, _ type: E.Type) throws(EventFieldError) -> E where E.RawValue == String {
        let text = try requiredString(i)
        guard let value = E(rawValue: text) else { throw .wrongKind(i) }
        return value
    }
}

extension Event {
    /// The event's type in the catalogue.
    public var eventType: EventType {
        switch self {
        case .launch: .launch
        case .activate: .activate
        case .openURL: .openURL
        case .terminate: .terminate
        case .forceQuit: .forceQuit
        case .crash: .crash
        case .beginBackgroundTask: .beginBackgroundTask
        case .endBackgroundTask: .endBackgroundTask
        case .startBackgroundActivity: .startBackgroundActivity
        case .stopBackgroundActivity: .stopBackgroundActivity
        case .remoteNotification: .remoteNotification
        case .tapNotification: .tapNotification
        case .backgroundFetch: .backgroundFetch
        case .memoryWarning: .memoryWarning
        case .prewarm: .prewarm
        case .runLoop(let input):
            switch input {
            case .touch: .touch
            case .remoteControl: .remoteControl
            case .shake: .shake
            case .motion: .motion
            case .location: .location
            case .redraw: .redraw
            }
        case .openScene: .openScene
        case .closeScene: .closeScene
        case .disconnectScene: .disconnectScene
        case .moveTo: .moveTo
        case .homeButton: .homeButton
        case .switchApp: .switchApp
        case .lock: .lock
        case .unlock: .unlock
        case .interruptionBegan: .interruptionBegan
        case .interruptionEnded: .interruptionEnded
        case .callEnded: .callEnded
        case .bannerNotification: .bannerNotification
        case .notificationCenterOpened: .notificationCenterOpened
        case .notificationCenterClosed: .notificationCenterClosed
        case .appSwitcherOpened: .appSwitcherOpened
        case .appSwitcherClosed: .appSwitcherClosed
        case .memoryPressure: .memoryPressure
        case .reboot: .reboot
        case .advanceTime: .advanceTime
        case .change: .change
        case .backgroundAppRefreshSwitch: .backgroundAppRefreshSwitch
        case .finishTransfer: .finishTransfer
        case .cancelContinuedTask: .cancelContinuedTask
        case .launchTask: .launchTask
        }
    }

    /// The values of the event's fields in catalogue order: the inverse of `EventDescription.make`.
    public var fieldValues: EventFieldValues {
        switch self {
        case .launch(let background, let url, let source):
            .init(.bool(background), url.map(EventFieldValue.string), source.map(EventFieldValue.string))
        case .activate(let session): .init(session.map(EventFieldValue.string))
        case .openURL(let url, let source, let annotation, let session):
            .init(
                .string(url), source.map(EventFieldValue.string), annotation.map(EventFieldValue.json),
                session.map(EventFieldValue.string))
        case .beginBackgroundTask(let name, let duration):
            .init(name.map(EventFieldValue.string), duration.map(EventFieldValue.number))
        case .endBackgroundTask(let task): .init(.integer(task))
        case .startBackgroundActivity(let mode): .init(.string(mode))
        case .stopBackgroundActivity(let mode): .init(.string(mode))
        case .remoteNotification(let payload, let contentAvailable):
            .init(payload.map(EventFieldValue.json), .bool(contentAvailable))
        case .tapNotification(let source, let payload):
            .init(.string(source.rawValue), payload.map(EventFieldValue.json))
        case .openScene(let session, let url, let source, let placement):
            .init(
                session.map(EventFieldValue.string), url.map(EventFieldValue.string),
                source.map(EventFieldValue.string), .string(placement.rawValue))
        case .closeScene(let session): .init(.string(session))
        case .disconnectScene(let session): .init(.string(session))
        case .moveTo(let state): .init(.string(state.rawValue))
        case .switchApp(let to): .init(.string(to))
        case .interruptionBegan(let kind): .init(.string(kind.rawValue))
        case .interruptionEnded(let accepted): .init(.bool(accepted))
        case .bannerNotification(let title): .init(title.map(EventFieldValue.string))
        case .memoryPressure(let level): .init(.string(level.rawValue))
        case .prewarm(let stage): .init(stage.map { EventFieldValue.string($0.rawValue) })
        case .advanceTime(let seconds): .init(.number(seconds))
        case .change(let kind, let value): .init(.string(kind.rawValue), value.map(EventFieldValue.json))
        case .backgroundAppRefreshSwitch(let enabled): .init(.bool(enabled))
        case .finishTransfer(let name, let outcome): .init(.string(name), .string(outcome.rawValue))
        case .cancelContinuedTask(let identifier): .init(.string(identifier))
        case .launchTask(let app, let identifier): .init(.string(app), .string(identifier))
        case .terminate, .forceQuit, .crash, .backgroundFetch, .memoryWarning, .runLoop, .homeButton, .lock, .unlock,
            .notificationCenterOpened, .notificationCenterClosed, .reboot, .callEnded, .appSwitcherOpened,
            .appSwitcherClosed:
            .init()
        }
    }
}
