import Testing

@testable import LifecycleCore

/// LIFECYCLE §15: BGTaskScheduler's requests, submitted from callbacks; the system's `launchTask`; the task's
/// time, expiration and completion; processing tasks while idle; continued processing tasks (iOS 26).
@Suite struct ScheduledTaskTests {
    static let refresh = ScheduledTaskRequest(kind: .refresh, identifier: "com.example.refresh")
    static let processing = ScheduledTaskRequest(kind: .processing, identifier: "com.example.clean")
    static let identifiers = ["com.example.refresh", "com.example.clean", "com.example.export.*"]

    /// App `a` submits `requests` as it enters the background.
    static func sim(
        ios: String = "17.0", requests: [ScheduledTaskRequest] = [refresh], modes: [String] = ["fetch", "processing"],
        identifiers: [String]? = identifiers, durations: [String: Double] = [:], endsTasksOnExpiration: Bool = true,
        notImplemented: Set<String> = []
    ) -> Sim {
        var sim = Sim(ios: ios)
        sim.add(
            "a", backgroundModes: modes, notImplemented: notImplemented, durations: durations,
            endsTasksOnExpiration: endsTasksOnExpiration,
            actions: [Selector.didEnterBackground: requests.map { .submitTask(request: $0) }],
            bgTaskIdentifiers: identifiers)
        return sim
    }

    static func run(_ identifier: String = "com.example.refresh") -> Event {
        .launchTask(app: "a", identifier: identifier)
    }

    @Test(
        "§15 submit: a request from a callback waits for the system; the system's launchTask runs it in the background")
    func refreshRunsFromSuspended() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.trace("a").contains("bgtask submitted refresh com.example.refresh"))
        #expect(sim.app("a").pendingTaskRequests.map(\.request.identifier) == ["com.example.refresh"])
        #expect(sim.state("a") == .suspended)
        try sim.onDevice(Self.run())
        #expect(
            sim.last.entries.trace(of: "a") == [
                "state suspended→background", "bgtask began refresh com.example.refresh",
                "call BGTaskScheduler.launchHandler [background]", "bgtask completed refresh com.example.refresh",
                "state background→suspended",
            ])
        #expect(sim.app("a").pendingTaskRequests.isEmpty)
    }

    @Test("§15 a task for an app that is not running launches it into the background, the launch callbacks first")
    func launchesNotRunningApp() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton, .terminate)
        try sim.onDevice(Self.run())
        let trace = sim.last.entries.trace(of: "a")
        #expect(trace.first == "state notRunning→background")
        #expect(trace.contains("call application:didFinishLaunchingWithOptions: [background]"))
        #expect(trace.firstIndex(of: "call BGTaskScheduler.launchHandler [background]")! > 2)
        #expect(sim.state("a") == .suspended)
    }

    @Test("§15 force-quit, then a background task is due: the app is not woken, a wakeRefused entry says so")
    func forceQuitStopsTasks() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton, .forceQuit)
        try sim.onDevice(Self.run())
        #expect(sim.last.entries.trace(of: "a") == ["refused backgroundTask forceQuit"])
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").pendingTaskRequests.count == 1)
    }

    @Test("§15 the task's time: 30 s for refresh, the expiration handler, then the task ends unsuccessfully")
    func refreshExpires() throws {
        var sim = Self.sim(durations: [ScheduledTasks.launchHandler: 45])
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.onDevice(Self.run())
        #expect(sim.state("a") == .background)
        try sim.onDevice(.wait(29))
        #expect(sim.state("a") == .background)
        try sim.onDevice(.wait(1))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call BGTask.expirationHandler [background]", "bgtask expired refresh com.example.refresh timeUp",
                "state background→suspended",
            ])
    }

    @Test("§15 a task that overruns its expiration (the handler leaves it unfinished) is killed, 0x2182bad2")
    func overrunKills() throws {
        var sim = Self.sim(durations: [ScheduledTasks.launchHandler: 45], endsTasksOnExpiration: false)
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.onDevice(Self.run(), .wait(30))
        #expect(sim.last.entries.trace(of: "a").suffix(1) == ["end scheduledTaskExpired notified:false 0x2182bad2"])
        #expect(TerminationReason.scheduledTaskExpired.kind.category == .taskTimeout)
    }

    @Test("§15 setTaskCompleted is the launch handler's duration: the app runs until then, then suspends")
    func completesAfterDuration() throws {
        var sim = Self.sim(durations: [ScheduledTasks.launchHandler: 10])
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.onDevice(Self.run(), .wait(9))
        #expect(sim.state("a") == .background)
        try sim.onDevice(.wait(1))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "bgtask completed refresh com.example.refresh", "state background→suspended",
            ])
    }

    @Test("§15 submit refused: an undeclared identifier, a missing mode, Background App Refresh off, too many pending")
    func refusals() throws {
        let other = ScheduledTaskRequest(kind: .refresh, identifier: "com.example.other")
        var sim = Self.sim(requests: [ScheduledTaskRequest(kind: .refresh, identifier: "com.example.nope")])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.trace("a").contains("bgtask refused refresh com.example.nope notPermitted"))
        sim = Self.sim(requests: [Self.processing], modes: ["fetch"])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.trace("a").contains("bgtask refused processing com.example.clean notPermitted"))
        sim = Self.sim()
        try sim.onDevice(.change(kind: .backgroundAppRefresh, value: "off"))
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.trace("a").contains("bgtask refused refresh com.example.refresh unavailable"))
        sim = Self.sim(
            requests: [Self.refresh, Self.refresh, other], identifiers: Self.identifiers + ["com.example.other"])
        try sim.on("a", .foregroundLaunch, .homeButton)
        // The same identifier replaces the unrun request; a second refresh identifier is one too many.
        #expect(sim.trace("a").contains("bgtask refused refresh com.example.other tooManyPendingTaskRequests"))
        #expect(sim.app("a").pendingTaskRequests.count == 1)
    }

    @Test("§15 ten processing requests may wait; the eleventh is refused")
    func processingLimit() throws {
        let requests = (0...10).map { ScheduledTaskRequest(kind: .processing, identifier: "com.example.p.\($0)") }
        var sim = Self.sim(requests: requests, identifiers: ["com.example.p.*"])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.app("a").pendingTaskRequests.count == 10)
        #expect(sim.trace("a").contains("bgtask refused processing com.example.p.10 tooManyPendingTaskRequests"))
    }

    @Test("§15 processing tasks run only while the device is idle (locked), on power when required; unlock ends them")
    func processingWhileIdle() throws {
        var request = Self.processing
        request.requiresExternalPower = true
        var sim = Self.sim(requests: [request], durations: [ScheduledTasks.launchHandler: 100])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.rejection(nil, Self.run("com.example.clean"))?.code == .invalidTransition)
        try sim.onDevice(.lock)
        #expect(sim.rejection(nil, Self.run("com.example.clean"))?.detail.contains("external power") == true)
        try sim.onDevice(.change(kind: .batteryState, value: "charging"), Self.run("com.example.clean"))
        #expect(sim.state("a") == .background)
        try sim.onDevice(.unlock)
        #expect(
            sim.last.entries.trace(of: "a").prefix(2) == [
                "call BGTask.expirationHandler [background]", "bgtask expired processing com.example.clean deviceInUse",
            ])
    }

    @Test("§15 backgroundFetch is refused for an app that lists BGTaskSchedulerPermittedIdentifiers, from iOS 13")
    func fetchDisabledByIdentifiers() throws {
        var sim = Self.sim()
        #expect(sim.rejection("a", .backgroundFetch)?.detail.contains("BGTaskSchedulerPermittedIdentifiers") == true)
        sim = Self.sim(identifiers: nil)
        try sim.on("a", .backgroundFetch)
        #expect(sim.selectors("a").contains(Selector.performFetch))
    }

    @Test("§15 versions: nothing before iOS 13, continued tasks before 26, each refused naming the version")
    func versions() throws {
        var sim = Sim(ios: "12.4")
        var configuration = AppConfiguration(bundleId: "com.example.a")
        configuration.delegate.actions = [Selector.didEnterBackground: [.submitTask(request: Self.refresh)]]
        #expect(throws: Rejection.self) { try sim.device.addApp(id: "a", configuration: configuration) }
        sim.add("b")
        #expect(sim.rejection(nil, .launchTask(app: "b", identifier: "x"))?.detail.contains("iOS 13.0") == true)
        var modern = Sim(ios: "18.0")
        configuration.delegate.actions = [
            ScheduledTasks.userAction: [.submitTask(request: .init(kind: .continued, identifier: "com.example.e.1"))]
        ]
        do {
            try modern.device.addApp(id: "a", configuration: configuration)
            Issue.record("a continued task on iOS 18 was accepted")
        } catch {
            #expect(error.detail.contains("iOS 26.0"))
        }
        modern.add("b")
        #expect(modern.rejection("b", .cancelContinuedTask(identifier: "x"))?.detail.contains("iOS 26.0") == true)
    }

    // MARK: - Continued processing tasks (iOS 26)

    static func continuedSim(strategy: ContinuedStrategy? = nil, duration: Double = 100) -> Sim {
        var sim = Sim(ios: "26.0")
        let requests = (1...2).map {
            ScheduledTaskRequest(kind: .continued, identifier: "com.example.export.\($0)", strategy: strategy)
        }
        sim.add(
            "a", durations: [ScheduledTasks.launchHandler: duration],
            actions: [
                ScheduledTasks.userAction: requests.map { .submitTask(request: $0) },
                ScheduledTasks.launchHandler: [.reportProgress(fraction: 0.25)],
            ],
            bgTaskIdentifiers: ["com.example.export.*"])
        return sim
    }

    @Test("§15 continued: a tap submits; the first starts at once with progress, the second waits in the queue")
    func continuedQueue() throws {
        var sim = Self.continuedSim()
        try sim.on("a", .foregroundLaunch, .runLoop(.touch))
        let trace = sim.last.entries.trace(of: "a")
        #expect(trace.contains("bgtask began continued com.example.export.1"))
        #expect(trace.contains("bgtask progress continued com.example.export.1 0.25"))
        #expect(!trace.contains("bgtask began continued com.example.export.2"))
        try sim.on("a", .homeButton)
        #expect(sim.state("a") == .background)
        try sim.onDevice(.wait(100))
        #expect(sim.trace("a").contains("bgtask completed continued com.example.export.1"))
        #expect(sim.trace("a").contains("bgtask began continued com.example.export.2"))
    }

    @Test("§15 continued: the fail strategy refuses a task the system cannot run now; outside a tap it is refused")
    func continuedFail() throws {
        var sim = Self.continuedSim(strategy: .fail)
        try sim.on("a", .foregroundLaunch, .runLoop(.touch))
        #expect(sim.trace("a").contains("bgtask refused continued com.example.export.2 immediateRunIneligible"))
        var late = Sim(ios: "26.0")
        late.add(
            "a",
            actions: [
                Selector.didEnterBackground: [
                    .submitTask(request: .init(kind: .continued, identifier: "com.example.e"))
                ]
            ],
            bgTaskIdentifiers: ["com.example.e"])
        try late.on("a", .foregroundLaunch, .homeButton)
        #expect(late.trace("a").contains("bgtask refused continued com.example.e notPermitted"))
    }

    @Test("§15 continued: the user's cancel runs the expiration handler and ends the task; the queued one starts")
    func continuedUserCancel() throws {
        var sim = Self.continuedSim()
        try sim.on("a", .foregroundLaunch, .runLoop(.touch), .homeButton)
        try sim.on("a", .cancelContinuedTask(identifier: "com.example.export.1"))
        #expect(
            sim.last.entries.trace(of: "a").prefix(3) == [
                "call BGTask.expirationHandler [background]", "bgtask cancelled continued com.example.export.1 user",
                "bgtask began continued com.example.export.2",
            ])
    }

    @Test("§15 continued: removed from the app switcher, the running and the queued tasks are cancelled")
    func continuedCancelledFromSwitcher() throws {
        var sim = Self.continuedSim()
        try sim.on("a", .foregroundLaunch, .runLoop(.touch), .homeButton, .forceQuit)
        #expect(
            sim.last.entries.trace(of: "a").suffix(2) == [
                "bgtask cancelled continued com.example.export.1 appSwitcher",
                "bgtask cancelled continued com.example.export.2 appSwitcher",
            ])
        #expect(sim.app("a").pendingTaskRequests.isEmpty && sim.app("a").runningTasks.isEmpty)
    }

    @Test("§15 wildcard identifiers match what follows their prefix")
    func wildcard() {
        #expect(ScheduledTasks.permits(["com.example.export.*"], "com.example.export.1"))
        #expect(!ScheduledTasks.permits(["com.example.export.*"], "com.example.export."))
        #expect(!ScheduledTasks.permits(["com.example.refresh"], "com.example.refresh2"))
    }
}
