import LifecycleCore

/// What the spec says of an event schema beyond the catalogue. Anything left out is made from the catalogue:
/// a new event needs nothing here.
struct SchemaNotes {
    /// The schema's prose (a new line in it makes a block); nil: the event's summary, or each type's in a group.
    var description: String?
    /// Notes on fields, by name.
    var fields: [String: FieldNotes] = [:]
    /// Lines after `properties`, indented as the schema's members (conditions between fields).
    var trailer: [String] = []
}

/// What the spec says of a field beyond the catalogue.
struct FieldNotes {
    /// A named schema of the spec the field refers to instead (an identifier's `Id` or `SessionId`, and a choice
    /// whose options are one of `NamedEnums`', refer to theirs without a note).
    var schema: String?
    /// Members of the field's schema the catalogue does not have, as YAML: `pattern: '^[^:]+:'`.
    var constraints: [String] = []
    /// nil: the catalogue's summary of the field.
    var description: String?
    var examples: [String] = []
}

enum EventSchemaNotes {
    /// Event types that share one schema, named here; every other type has its own, `<Type>Event`.
    static let groups: [(name: String, types: [EventType])] = [
        ("SceneSessionEvent", [.closeScene, .disconnectScene]),
        ("AppActionEvent", [.terminate, .forceQuit, .crash, .backgroundFetch, .memoryWarning]),
        ("BackgroundActivityEvent", [.startBackgroundActivity, .stopBackgroundActivity]),
        ("RunLoopEvent", [.touch, .remoteControl, .shake, .motion, .location, .redraw]),
        (
            "DeviceActionEvent",
            [
                .homeButton, .lock, .unlock, .notificationCenterOpened, .notificationCenterClosed, .reboot, .callEnded,
                .appSwitcherOpened, .appSwitcherClosed,
            ]
        ),
    ]

    private static let urlScheme = "pattern: '^[^:]+:'"
    private static let anyJSON = "Any JSON, passed as the notification's userInfo."

    static let schemas: [String: SchemaNotes] = [
        "LaunchEvent": SchemaNotes(
            description:
                "Launch the app (a legal no-op if it is already in the foreground). Any other foreground app leaves first, as on Home.",
            fields: [
                "background": FieldNotes(description: "Launch into the background instead of the foreground."),
                "url": FieldNotes(
                    constraints: [urlScheme],
                    description:
                        "Launch to open this URL (the URL callback follows the launch callbacks); it starts with a scheme (`mail:`), else `400 invalid-field`."
                ),
                "sourceApplication": FieldNotes(description: "Bundle id of the app that asked to open the URL."),
            ],
            trailer: [
                "# A background launch opens no URL (400 invalid-field).",
                "if: {properties: {background: {const: true}}, required: [background]}",
                "then: {not: {required: [url]}}",
            ]),
        "OpenURLEvent": SchemaNotes(
            description: "Open a URL in the app, launching it or bringing it to the foreground if needed.",
            fields: [
                "url": FieldNotes(
                    constraints: [urlScheme], description: "Starts with a scheme (`mail:`), else `400 invalid-field`.",
                    examples: ["mail://inbox"]),
                "sourceApplication": FieldNotes(description: "Bundle id of the app that opened the URL."),
                "annotation": FieldNotes(description: "Any JSON, passed to the URL callback."),
                "session": FieldNotes(
                    description: "Scene apps: the scene that gets the URL (docs/LIFECYCLE.md §11.8)."),
            ]),
        "ActivateEvent": SchemaNotes(
            description: "Tap the icon or pick it in the app switcher (launches if needed).",
            fields: [
                "session": FieldNotes(description: "Scene apps: the scene to bring forward (docs/LIFECYCLE.md §11.8).")
            ]),
        "OpenSceneEvent": SchemaNotes(
            description: """
                Scene apps: a new window with a new session (docs/LIFECYCLE.md §11). `split` while the app is in
                the foreground joins the front scenes; `fullScreen`, or the app not in front, replaces them
                (launching the app if needed). A second session needs `supportsMultipleScenes` and an iPad.
                An app has at most 32 sessions at once, and may name (then close) at most 4096 over its life;
                past either, `409` (docs/LIFECYCLE.md §11.9).
                """,
            fields: [
                "session": FieldNotes(description: "The new session's id; omitted: `s1`, `s2`, ..."),
                "url": FieldNotes(
                    constraints: ["minLength: 1"], description: "Delivered in the connection options (`urlContexts`)."),
            ]),
        "SceneSessionEvent": SchemaNotes(
            description: """
                Scene apps (docs/LIFECYCLE.md §11.9): `closeScene`, the user closes that window or swipes its card
                away (the last session: as `forceQuit`); `disconnectScene`, the system reclaims that
                background scene, keeping its session.
                """),
        "MoveToEvent": SchemaNotes(
            description: """
                Brings the app to `state` by the shortest sequence of ordinary events, applied all or
                nothing like a batch of them; the answer lists them in `applied`. Each step is chosen from
                the device as the previous one left it:
                - `active`: `activate` (launching if needed); an interruption in progress is declined first
                  (`interruptionEnded {accepted: false}`), an open Notification Center closed
                  (`notificationCenterClosed`) when the app is the one under it (another app starts from
                  it, LIFECYCLE §5).
                - `inactive`: the path to `active`, then `interruptionBegan {kind: alert}`.
                - `suspended`: from the foreground `homeButton` (after `notificationCenterClosed` if it is
                  open), from `notRunning` `launch {background: true}`; then `endBackgroundTask` for each
                  unfinished task and `stopBackgroundActivity` for each running mode; where the suspension
                  rule needs time (`suspendDelay`, or a fetch or push window still open), `advanceTime` by
                  exactly that long (on a realtime clock too: the device clock moves ahead).
                - `background`: `beginBackgroundTask {name: moveTo}` while the app runs (not when a task or
                  background activity already keeps it running), then `homeButton`. From `notRunning` on a
                  device with a `suspendDelay`: `launch {background: true}`, then the task; from `notRunning`
                  without one, and from `suspended`, the app can begin a task only in front: `activate`, the
                  task, `homeButton` (another app in front leaves, as on any `activate`).
                - `notRunning`: `terminate`.

                Already there: `"changed": false`, `"applied": []`. No path: `409 invalid-transition` with
                `blockedBy`, the step that cannot happen (a device without multitasking asked for
                `background` or `suspended`: `launch` or `homeButton`; the device locked asked for `active`:
                `activate`, with `allowed: [unlock]`; a step that would end the app, such as a launch
                watchdog or the iOS 27 gate), and nothing applied. Scene apps take the same steps, which
                move their scenes (docs/LIFECYCLE.md §11).
                """),
        "AppActionEvent": SchemaNotes(
            description: """
                An app-level event without fields:
                - `terminate`: the system ends the app.
                - `forceQuit`: the user swipes it away in the app switcher.
                - `crash`: the app crashes.
                - `backgroundFetch`: a background fetch (needs the `fetch` mode; iOS 7.0+).
                - `memoryWarning`: Xcode's "Simulate Memory Warning".
                """),
        "BeginBackgroundTaskEvent": SchemaNotes(
            description:
                "The app begins a background task; its id is in the `backgroundTask` entry and in the app's `backgroundTasks`.",
            fields: [
                "duration": FieldNotes(
                    description: "Seconds until the app ends the task itself; omitted, it never does.")
            ]),
        "EndBackgroundTaskEvent": SchemaNotes(
            description: "The app ends a background task.", fields: ["task": FieldNotes(description: "The task id.")]),
        "BackgroundActivityEvent": SchemaNotes(
            description:
                "Start or stop a background activity (audio playing, location updates, voip). A mode not in `info.backgroundModes` answers `409`.",
            fields: ["mode": FieldNotes(schema: "ContinuousBackgroundMode")]),
        "RemoteNotificationEvent": SchemaNotes(
            description:
                "A push notification arrives. With `contentAvailable` (and the `remote-notification` mode) it wakes or launches the app into the background.",
            fields: ["payload": FieldNotes(description: anyJSON)]),
        "TapNotificationEvent": SchemaNotes(
            description:
                "The user taps the app's notification where it shows. A not-running app launches with it in its launch options (`remoteNotification`); a background or suspended app comes to the foreground and gets the remote-notification callback while inactive, before it becomes active; with `notificationCenter` the app that was in front goes from inactive straight to the background (docs/LIFECYCLE.md §5). Not for scene-based apps (409).",
            fields: [
                "source": FieldNotes(
                    description:
                        "`banner` (iOS 5.0 and later), `alert` (an alert interruption is showing: it ends), or `notificationCenter` (it is open: it closes)."
                ),
                "payload": FieldNotes(description: anyJSON),
            ]),
        "RunLoopEvent": SchemaNotes(
            description:
                "An input event for the app's main run loop; delivered or dropped depending on the state (docs/LIFECYCLE.md §8)."
        ),
        "DeviceActionEvent": SchemaNotes(
            description: """
                A device-level event without fields: `homeButton`, `lock` and `unlock` (the
                sleep/wake button), `notificationCenterOpened`, `notificationCenterClosed`, `reboot`,
                `callEnded` (the call the user answered hangs up; `409` when none is in progress),
                `appSwitcherOpened` and `appSwitcherClosed` (a double press of Home shows the switcher over
                the app in front, which resigns active; docs/LIFECYCLE.md §5).
                """),
        "SwitchAppEvent": SchemaNotes(description: "Switch to another app on the device (the app switcher)."),
        "InterruptionBeganEvent": SchemaNotes(
            description: "An alert-style interruption (a call, an SMS alert, an alarm...) begins."),
        "InterruptionEndedEvent": SchemaNotes(
            description:
                "The interruption ends; `accepted` (e.g. the call was taken) sends the foreground app away as on Home.",
            fields: ["accepted": FieldNotes(description: "`true`: the user answered; `false`: declined.")]),
        "BannerNotificationEvent": SchemaNotes(
            description: "A banner notification (changes nothing from iOS 5.0; before, it is an alert)."),
        "MemoryPressureEvent": SchemaNotes(
            description:
                "System memory pressure: `warning` warns running apps; `critical` also purges suspended apps and terminates the largest background one."
        ),
        "AdvanceTimeEvent": SchemaNotes(
            description: "Move the device's clock forward; deadlines that fall due fire in order.",
            fields: [
                "seconds": FieldNotes(
                    description:
                        "At most what keeps the clock at or below 10^12 s, where it stops; more answers 400 with the room left."
                )
            ]),
        "ChangeEvent": SchemaNotes(
            description: """
                Something on the device changed; apps get the matching notification (queued and
                coalesced for suspended apps). `value` is the new value, required for every kind except
                the moments `significantTime` and `statusBarFrame`; typical values are listed under `Settings`.
                Its type follows the kind (`orientation`: an `Orientation`; `locale` and `screenMode`: a
                non-empty string; `batteryLevel`: a number from 0 to 1; `batteryState`: `unknown`,
                `unplugged`, `charging` or `full`; `proximity` and `lowPowerMode`: a boolean; `accessory` and
                `screen`: a `Connection`; `backgroundAppRefresh`: `on`, `off` or `restricted`); another answers
                `400 invalid-field` naming `value`. `backgroundAppRefresh` and `lowPowerMode` post
                `UIApplicationBackgroundRefreshStatusDidChangeNotification` only to apps whose
                `backgroundRefreshStatus` changed (docs/LIFECYCLE.md §6, the wake policy). (Written here rather
                than as conditional schemas, which client generators do not take.)
                """,
            fields: [
                "value": FieldNotes(
                    description:
                        "The new value: of the type `Settings` gives for the kind; any JSON for `settings`, `ubiquityIdentity` and the moments."
                )
            ]),
    ]
}
