/// Something that happens to an app or a device: the input of the state machine.
///
/// The first group targets one app; the second targets a device (and, posted on an app's path,
/// that app's device). `EventType` names them on the wire and describes their fields (EventCatalogue.swift).
public enum Event: Equatable, Sendable, Codable {
    // App events.
    case launch(background: Bool, url: String?, sourceApplication: String?)
    /// A tap on the icon or a pick in the app switcher: launches if needed. `session` picks the scene (§11.8).
    case activate(session: String?)
    case openURL(url: String, sourceApplication: String?, annotation: JSONValue?, session: String?)
    /// The system ends the app.
    case terminate
    /// The user swipes the app away in the app switcher.
    case forceQuit
    case crash
    /// `duration`: seconds until the app ends the task itself; nil, it never does.
    case beginBackgroundTask(name: String?, duration: Double?)
    case endBackgroundTask(task: Int)
    case startBackgroundActivity(mode: String)
    case stopBackgroundActivity(mode: String)
    case remoteNotification(payload: JSONValue?, contentAvailable: Bool)
    /// The user taps the app's notification where it shows (`source`): it launches or resumes the app
    /// with `payload` (LIFECYCLE §5).
    case tapNotification(source: NotificationSource, payload: JSONValue?)
    case backgroundFetch
    /// Xcode's "Simulate Memory Warning".
    case memoryWarning
    /// The system prewarms a not-running app (LIFECYCLE §12.1); nil `stage`: the observed rule.
    case prewarm(stage: PrewarmStage?)
    case runLoop(RunLoopEvent)
    /// A new window with a new session (LIFECYCLE §11, API.md "Scenes"); nil `session`: a server-made id.
    case openScene(session: String?, url: String?, sourceApplication: String?, placement: ScenePlacement)
    /// The user closes that window or swipes its card away (§11.9).
    case closeScene(session: String)
    /// The system reclaims that background scene (§11.9).
    case disconnectScene(session: String)
    /// The shortest sequence of the events above that brings the app to `state` (API.md, `moveTo`).
    case moveTo(state: AppState)

    // Device events.
    case homeButton
    case switchApp(to: String)
    case lock
    case unlock
    case interruptionBegan(kind: InterruptionKind)
    case interruptionEnded(accepted: Bool)
    case callEnded
    case bannerNotification(title: String?)
    case notificationCenterOpened
    case notificationCenterClosed
    case appSwitcherOpened
    case appSwitcherClosed
    case memoryPressure(level: MemoryPressureLevel)
    case reboot
    case advanceTime(seconds: Double)
    case change(kind: ChangeKind, value: JSONValue?)

    // App events added since.
    /// The user turns the app's own Background App Refresh switch in Settings (LIFECYCLE §6, the wake policy).
    case backgroundAppRefreshSwitch(enabled: Bool)
    /// The system ends the app's oldest background transfer under way named `name` (LIFECYCLE §14): the harness
    /// decides when, and how.
    case finishTransfer(name: String, outcome: TransferOutcome)
    /// The user cancels the app's continued processing task from its Live Activity (LIFECYCLE §15, iOS 26).
    case cancelContinuedTask(identifier: String)

    // Device events added since.
    /// The system runs an app's pending BGTaskScheduler request now (LIFECYCLE §15): what
    /// `_simulateLaunchForTaskWithIdentifier:` does on a device in the debugger.
    case launchTask(app: String, identifier: String)

    /// The wire name of the event's `type` (`EventType`, whose catalogue describes it).
    public var type: String { eventType.name }

    /// Whether the event targets a device rather than one app.
    public var isDeviceEvent: Bool { eventType.isDeviceEvent }

    /// The wire names of the events an app's path takes that are not device events, in catalogue order.
    public static let appTypes: [String] = EventType.allCases.filter { !$0.isDeviceEvent }.map(\.name)
    /// The wire names of the device events.
    public static let deviceTypes: [String] = EventType.allCases.filter { $0.isDeviceEvent }.map(\.name)
    public static let allTypes: [String] = appTypes + deviceTypes
}

/// Input the main run loop delivers to an app (LIFECYCLE §8).
public enum RunLoopEvent: String, Sendable, Codable, CaseIterable {
    case touch, remoteControl, shake, motion, location, redraw
}

/// An alert-style interruption (LIFECYCLE §5).
public enum InterruptionKind: String, Sendable, Codable, CaseIterable {
    case call, sms, alarm, alert
}

/// Where `openScene` puts the new window.
public enum ScenePlacement: String, Sendable, Codable, CaseIterable {
    /// Beside the foreground scenes (Split View) while the app is in front.
    case split
    /// In place of the foreground scenes.
    case fullScreen
}

/// Where the user taps a notification (LIFECYCLE §5).
public enum NotificationSource: String, Sendable, Codable, CaseIterable {
    /// A banner at the top of the screen (iOS 5.0 and later).
    case banner
    /// An alert: the only way a notification shows before iOS 5.0, and the alert style later.
    case alert
    /// An entry of the open Notification Center.
    case notificationCenter
}

public enum MemoryPressureLevel: String, Sendable, Codable, CaseIterable {
    case warning, critical
}
