import LifecycleClient
import LifecycleCore
import LifecycleEmbedded
import LifecycleOpenAPI
import OpenAPIRuntime
import Testing

/// The shape of many apps' lifecycle code: an analytics session per time in front, and a save begun in
/// `applicationDidEnterBackground:` under a background task, ended by its expiration handler if the save is
/// still running when the background time is up; state preservation and restoration of a draft.
final class SessionTracker: LiveApplicationDelegate {
    private(set) var events: [String] = []
    private(set) var sessionsStarted = 0
    private(set) var sessionsEnded = 0
    private(set) var saveTask: Int?
    private(set) var expirations = 0
    private(set) var restored: JSONValue?
    /// Simulated seconds the save takes on the main thread inside `applicationDidEnterBackground:`.
    var saveSeconds = 0.5

    func application(_ application: LiveApplication, didFinishLaunchingWithOptions options: [String: JSONValue])
        -> Bool
    {
        events.append("launch")
        return true
    }

    func applicationDidBecomeActive(_ application: LiveApplication) {
        sessionsStarted += 1
        events.append("session start")
    }

    func applicationDidEnterBackground(_ application: LiveApplication) {
        sessionsEnded += 1
        events.append("session end")
        saveTask = application.beginBackgroundTask(withName: "save") { [unowned self, unowned application] in
            expirations += 1
            if let task = saveTask { application.endBackgroundTask(task) }
            saveTask = nil
        }
        application.spend(saveSeconds)
    }

    func application(_ application: LiveApplication, shouldSaveApplicationState coder: [String: JSONValue]) -> Bool {
        true
    }

    func application(_ application: LiveApplication, shouldRestoreApplicationState coder: [String: JSONValue])
        -> Bool
    {
        true
    }

    func application(_ application: LiveApplication, didDecodeRestorableState state: JSONValue, savedAt: Double) {
        restored = state
        events.append("restored")
    }
}

@Suite struct LiveDelegateClientTests {
    static func liveApp(_ lifecycled: LifecycledClient, id: String) async throws -> AppHandle {
        var delegate = Components.Schemas.AppDelegate()
        delegate.live = true
        return try await lifecycled.createApp(
            .init(
                id: id, bundleId: "com.example.\(id)", iosVersion: "7.0", delegate: delegate,
                restorableState: try OpenAPIObjectContainer(unvalidatedValue: ["draft": "hello"])))
    }

    @Test func aSessionTrackerRunsThroughLaunchHomeExpirationAndRestoration() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        let lifecycled = daemon.client(namespace: "live")
        let app = try await Self.liveApp(lifecycled, id: "tracker")
        let tracker = SessionTracker()
        let adapter = try daemon.attach(tracker, toApp: "tracker", namespace: "live")

        try await app.send(.launch)
        #expect(tracker.events == ["launch", "session start"])
        #expect(try await app.get().state == .active)

        try await lifecycled.device(try await app.get().device).send(.homeButton)
        #expect(tracker.sessionsEnded == 1)
        #expect(tracker.saveTask == 1)
        #expect(try await app.get().state == .background)
        #expect(adapter.application.applicationState == .background)

        // The background time runs out: the handler ends the task, and the app is suspended, not killed.
        try await lifecycled.device(try await app.get().device).send(.advanceTime(seconds: 200))
        #expect(tracker.expirations == 1)
        #expect(tracker.saveTask == nil)
        let suspended = try await app.get()
        #expect(suspended.state == .suspended)
        #expect(suspended.termination == nil)

        // The system ends the suspended app; at its next launch it gets its state back.
        try await app.send(.terminate)
        try await app.send(.launch)
        #expect(tracker.restored == .object(["draft": .string("hello")]))
        #expect(tracker.events.suffix(3) == ["restored", "launch", "session start"])
        #expect(tracker.sessionsStarted == 2)
        let selectors = try await app.callbacks().items.map(\.selector)
        #expect(selectors.contains("backgroundTaskExpirationHandler"))
        #expect(selectors.contains("application:didDecodeRestorableStateWithCoder:"))
    }

    @Test func aDelegateThatTakesTooLongIsKilledByTheWatchdog() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        let lifecycled = daemon.client(namespace: "slow")
        let app = try await Self.liveApp(lifecycled, id: "slow")
        let tracker = SessionTracker()
        tracker.saveSeconds = 6
        try daemon.attach(tracker, toApp: "slow", namespace: "slow")
        try await app.send(.launch)
        try await lifecycled.device(try await app.get().device).send(.homeButton)
        let killed = try await app.get()
        #expect(killed.state == .notRunning)
        #expect(killed.termination?.reason == .watchdog)
        #expect(killed.termination?.code?.rawValue == "0x8badf00d")
    }

    @Test func onlyALiveAppTakesALiveDelegate() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        let lifecycled = daemon.client()
        try await lifecycled.createApp(id: "scripted", bundleId: "com.example.scripted")
        #expect(throws: LifecycledProblem.self) { try daemon.attach(SessionTracker(), toApp: "scripted") }
        #expect(throws: LifecycledProblem.self) { try daemon.attach(SessionTracker(), toApp: "nowhere") }
    }
}
