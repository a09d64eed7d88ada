import Foundation
import LifecycleApplication
import LifecycleClient
import LifecycleDaemon
import LifecycleCore
import LifecycleEmbedded
import LifecycleOpenAPI
import LifecycleTesting
import Locking
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

/// Where a live delegate runs: in process against an `EmbeddedDaemon`, or over HTTP against a daemon running on a
/// port (`LifecycledClient.attach`).
enum LiveForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded
    case overHTTP

    var testDescription: String { rawValue }
}

/// A daemon of one form, a client of `namespace` on it, and how a delegate is attached there.
final class LiveWorld {
    let lifecycled: LifecycledClient
    private let embedded: EmbeddedDaemon?
    private let running: TestDaemon?
    private var connections: [LiveDelegateConnection] = []

    /// The delegates get 60 s to answer each callback, not the default 10: over HTTP on a loaded machine (the whole
    /// suite running in parallel) a long poll's round trip has taken longer, and the app was taken as hung. A test
    /// of the timeout sets its own.
    init(_ form: LiveForm, namespace: String, configure: (inout ServiceOptions) -> Void = { _ in }) throws {
        switch form {
        case .embedded:
            var configuration = DaemonConfiguration()
            configuration.service.liveAnswerTimeout = 60
            configure(&configuration.service)
            let daemon = try EmbeddedDaemon(configuration: configuration)
            (embedded, running) = (daemon, nil)
            lifecycled = daemon.client(namespace: namespace)
        case .overHTTP:
            let daemon = try TestDaemon(
                transport: .live,
                configure: { options in
                    options.liveAnswerTimeout = 60
                    configure(&options)
                })
            (embedded, running) = (nil, daemon)
            let url = try #require(URL(string: "http://127.0.0.1:\(daemon.port)"))
            lifecycled = LifecycledClient(url: url, namespace: namespace)
        }
    }

    /// Attaches `delegate` to `app`: the app's `UIApplication` as the delegate sees it.
    @discardableResult
    func attach(_ delegate: any LiveApplicationDelegate, toApp app: String) async throws -> LiveApplication {
        if let embedded {
            return try embedded.attach(delegate, toApp: app, namespace: lifecycled.namespace).application
        }
        let connection = try await lifecycled.attach(delegate, toApp: app)
        connections.append(connection)
        return connection.application
    }

    func stop() {
        for connection in connections { connection.detach() }
        embedded?.stop()
        running?.stop()
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

    /// The same test body in process and over HTTP: the tracker's own state, and the app's, after each step.
    @Test(arguments: LiveForm.allCases)
    func aSessionTrackerRunsThroughLaunchHomeExpirationAndRestoration(form: LiveForm) async throws {
        let world = try LiveWorld(form, namespace: "live")
        defer { world.stop() }
        let lifecycled = world.lifecycled
        let app = try await Self.liveApp(lifecycled, id: "tracker")
        let tracker = SessionTracker()
        let application = try await world.attach(tracker, toApp: "tracker")

        try await app.send(.launch)
        #expect(tracker.events == ["launch", "session start"])
        #expect(try await app.get().state == .active)

        try await lifecycled.device(try await app.get().device).send(.homeButton)
        #expect(tracker.sessionsEnded == 1)
        #expect(tracker.saveTask == 1)
        #expect(try await app.get().state == .background)
        #expect(application.applicationState == .background)

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

    /// Over HTTP, a delegate that answers after `--live-answer-timeout` is too late: the daemon took the callback
    /// as hung, the watchdog ended the app, and the late answer is refused.
    @Test func aLateAnswerOverHTTPGetsTheAppKilledByTheWatchdog() async throws {
        // Long enough for the launch's answers on a loaded machine; the background's answer waits for the test.
        let world = try LiveWorld(.overHTTP, namespace: "late", configure: { $0.liveAnswerTimeout = 8 })
        defer { world.stop() }
        let app = try await Self.liveApp(world.lifecycled, id: "slow")
        let sleeper = WallClockSleeper()
        let connection = try await world.lifecycled.attach(sleeper, toApp: "slow")
        defer { connection.detach() }
        try await app.send(.launch)
        #expect(try await app.get().state == .active)
        try await world.lifecycled.device(try await app.get().device).send(.homeButton)
        let killed = try await app.get()
        #expect(killed.state == .notRunning)
        #expect(killed.termination?.reason == .watchdog)
        #expect(killed.termination?.code?.rawValue == "0x8badf00d")
        let callbacks = try await app.callbacks().items.map { "\($0.selector) \($0.duration)" }
        #expect(sleeper.entered == 1, "\(callbacks)")
        sleeper.release.signal()
        // The answer came after the deadline: refused, counted, and the connection goes on.
        let deadline = ContinuousClock.now + .seconds(10)
        while connection.lateAnswers == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(connection.lateAnswers == 1)
        #expect(connection.answered > 0)
    }

    /// A connection over HTTP ends when the app is deleted, and when it is detached.
    @Test func aConnectionOverHTTPEndsWithItsAppOrWhenDetached() async throws {
        let world = try LiveWorld(.overHTTP, namespace: "ends")
        defer { world.stop() }
        let lifecycled = world.lifecycled
        let app = try await Self.liveApp(lifecycled, id: "gone")
        let deleted = try await lifecycled.attach(SessionTracker(), toApp: "gone")
        try await app.send(.launch)
        try await app.delete()
        #expect(try await deleted.ended() == .appDeleted)

        _ = try await Self.liveApp(lifecycled, id: "kept")
        let detached = try await lifecycled.attach(SessionTracker(), toApp: "kept")
        detached.detach()
        #expect(try await detached.ended() == .detached)

        // Attaching to an app that is not there, or not live, is refused at once.
        try await lifecycled.createApp(id: "scripted", bundleId: "com.example.scripted")
        let scripted = await #expect(throws: LifecycledProblem.self) {
            try await lifecycled.attach(SessionTracker(), toApp: "scripted")
        }
        #expect(scripted?.code == "invalid-transition")
        let missing = await #expect(throws: LifecycledProblem.self) {
            try await lifecycled.attach(SessionTracker(), toApp: "nowhere")
        }
        #expect(missing?.code == "not-found")
    }
}

/// A delegate whose `applicationDidEnterBackground:` blocks its thread for 3 s of wall-clock time: over
/// HTTP its answer comes after a short `--live-answer-timeout`.
final class WallClockSleeper: LiveApplicationDelegate, Sendable {
    /// Counted on the connection's queue, read by the test while the delegate may still sleep: behind a lock.
    private let enteredCount = Protected(0)
    var entered: Int { enteredCount.withLock { $0 } }

    /// Signalled by the test once the daemon has taken the callback as hung: the answer is late whatever the load.
    let release = DispatchSemaphore(value: 0)

    func applicationDidEnterBackground(_ application: LiveApplication) {
        enteredCount.withLock { $0 += 1 }
        _ = release.wait(timeout: .now() + 60)
    }
}

// README.md, "Your own delegate code as the app's": the example's delegate and both forms, as written there
// (the daemon's URL aside), so that it stays true.
final class ReadmeTracker: LiveApplicationDelegate {
    var sessions = 0
    func applicationDidBecomeActive(_ application: LiveApplication) { sessions += 1 }
    func applicationDidEnterBackground(_ application: LiveApplication) {
        let save = application.beginBackgroundTask(withName: "save")
        application.spend(0.5)  // the save's simulated seconds on the main thread
        application.endBackgroundTask(save)
    }
}

@Suite struct ReadmeLiveExampleTests {
    @Test func theReadmeExampleRunsInProcessAndOverHTTP() async throws {
        let server = try TestDaemon(transport: .live)
        defer { server.stop() }
        let tracker = ReadmeTracker()

        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        let embedded = daemon.client()
        try await embedded.createApp(.init(id: "tracker", bundleId: "com.example.tracker", delegate: .init(live: true)))
        try daemon.attach(tracker, toApp: "tracker")
        try await embedded.app("tracker").send(.launch)
        #expect(tracker.sessions == 1)

        let lifecycled = LifecycledClient(url: URL(string: "http://127.0.0.1:\(server.port)")!, namespace: "ci-42")
        try await lifecycled.createApp(
            .init(id: "tracker", bundleId: "com.example.tracker", delegate: .init(live: true)))
        let connection = try await lifecycled.attach(tracker, toApp: "tracker")
        try await lifecycled.app("tracker").send(.launch)
        #expect(tracker.sessions == 2)
        connection.detach()
    }
}
