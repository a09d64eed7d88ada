import Testing

@testable import LifecycleCore

/// §4 and §11.9: state preservation as the app goes to the background, restoration at its next launch, and what
/// discards the saved state (a force quit) or keeps it (a system termination).
@Suite struct RestorationTests {
    static let state: JSONValue = .object(["screen": .string("inbox"), "scroll": .number(120)])

    static func sim(ios: String = "7.0", returns: [String: Bool] = [:], durations: [String: Double] = [:]) -> Sim {
        var sim = Sim(ios: ios)
        sim.add("a", durations: durations, returns: returns, restorableState: state)
        return sim
    }

    /// The app launched, sent to the background (its state preserved), then ended by the system.
    static func endedInBackground(
        returns: [String: Bool] = [:], durations: [String: Double] = [:]
    ) throws -> Sim {
        var sim = sim(returns: returns, durations: durations)
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .terminate)
        return sim
    }

    static let relaunchWithRestoration = [
        "call application:willFinishLaunchingWithOptions: [inactive]",
        "call application:shouldRestoreApplicationState: [inactive]",
        "call application:didDecodeRestorableStateWithCoder: [inactive]",
        "call application:didFinishLaunchingWithOptions: [inactive]",
    ]

    @Test("§4 the app's state is preserved right after applicationDidEnterBackground: returns")
    func preservedAtBackground() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .wait(5))
        try sim.on("a", .homeButton)
        let trace = sim.lastTrace()
        let posted = try #require(trace.firstIndex(of: "post UIApplicationDidEnterBackgroundNotification"))
        #expect(
            Array(trace[(posted + 1)...(posted + 2)]) == [
                "call application:shouldSaveApplicationState: [background]",
                "call application:willEncodeRestorableStateWithCoder: [background]",
            ])
        #expect(sim.last.entries.callbackArgs(of: "a").last == ["state": Self.state])
        #expect(sim.app("a").preservedState == PreservedState(state: Self.state, savedAt: 5))
    }

    @Test("§4 an app that declares no restorableState, or says NO to saving, keeps nothing")
    func notSaved() throws {
        var plain = Sim(ios: "7.0")
        plain.add("a")
        try plain.on("a", .foregroundLaunch, .homeButton)
        #expect(!plain.selectors("a").contains(Selector.shouldSaveApplicationState))
        var declines = Self.sim(returns: [Selector.shouldSaveApplicationState: false])
        try declines.on("a", .foregroundLaunch, .homeButton)
        #expect(declines.selectors("a").contains(Selector.shouldSaveApplicationState))
        #expect(!declines.selectors("a").contains(Selector.willEncodeRestorableState))
        #expect(declines.app("a").preservedState == nil)
    }

    @Test("§4 a system termination keeps the state: the next launch restores it between willFinish and didFinish")
    func restoredAfterSystemTermination() throws {
        var sim = try Self.endedInBackground()
        try sim.on("a", .foregroundLaunch)
        let launch = sim.lastTrace().filter { $0.hasPrefix("call") }
        #expect(Array(launch.prefix(4)) == Self.relaunchWithRestoration)
        let decoded = sim.last.entries.callbackArgs(of: "a")[2]
        #expect(decoded == ["state": Self.state, "savedAt": .number(0)])
        #expect(sim.app("a").preservedState == nil, "offered once")
    }

    @Test("§4 a force quit discards the state, from the background or once the app is not running")
    func forceQuitDiscards() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .forceQuit)
        try sim.on("a", .foregroundLaunch)
        #expect(!sim.lastTrace().contains { $0.contains("Restor") })
        try sim.on("a", .homeButton)
        try sim.on("a", .terminate)
        #expect(sim.app("a").preservedState != nil)
        let quit = try sim.on("a", .forceQuit)
        #expect(quit.changed, "discarding the state of a not-running app is a change")
        #expect(sim.app("a").preservedState == nil)
    }

    @Test("§4 shouldRestoreApplicationState: NO skips the decode, and the state is gone all the same")
    func restoreDeclined() throws {
        var sim = try Self.endedInBackground(returns: [Selector.shouldRestoreApplicationState: false])
        try sim.on("a", .foregroundLaunch)
        #expect(sim.last.entries.selectors(of: "a").contains(Selector.shouldRestoreApplicationState))
        #expect(!sim.last.entries.selectors(of: "a").contains(Selector.didDecodeRestorableState))
        #expect(sim.app("a").preservedState == nil)
    }

    @Test("§4 a launch the watchdog ends during restoration loses the state (a crash at launch)")
    func launchKilledDiscards() throws {
        // 15 s of willFinish leaves 5 s of the launch watchdog; restoring takes 10.
        var sim = try Self.endedInBackground(durations: [
            Selector.willFinishLaunchingWithOptions: 15, Selector.shouldRestoreApplicationState: 10,
        ])
        #expect(sim.app("a").preservedState != nil)
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").termination?.reason == .watchdog)
        #expect(sim.lastTrace().contains("call application:shouldRestoreApplicationState: [inactive]"))
        #expect(sim.app("a").preservedState == nil)
        // Killed in willFinish, before restoration began (state put in place, as an earlier run would leave it).
        var early = Self.sim(durations: [Selector.willFinishLaunchingWithOptions: 25])
        early.device.apps[existing: "a"].preservedState = PreservedState(state: Self.state, savedAt: 0)
        try early.on("a", .foregroundLaunch)
        #expect(early.app("a").termination?.reason == .watchdog)
        #expect(!early.lastTrace().contains { $0.contains("Restor") })
        #expect(early.app("a").preservedState == nil)
    }

    @Test("§4 a background launch restores too; before iOS 6 there is no preservation")
    func backgroundAndOld() throws {
        var sim = try Self.endedInBackground()
        try sim.on("a", .backgroundLaunch)
        #expect(sim.last.entries.selectors(of: "a").contains(Selector.didDecodeRestorableState))
        var old = Self.sim(ios: "5.1")
        try old.on("a", .foregroundLaunch, .homeButton)
        #expect(!old.selectors("a").contains(Selector.shouldSaveApplicationState))
        #expect(old.app("a").preservedState == nil)
    }

    @Test("11.9 a scene's stateRestorationActivity is kept with its session and handed to its next connection")
    func sceneActivity() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", scenes: .standard, restorableState: Self.state)
        try sim.on("a", .foregroundLaunch)
        let session = try #require(sim.sessions().first)
        try sim.on("a", .homeButton)
        let trace = sim.lastTrace()
        let background = try #require(trace.firstIndex { $0.hasPrefix("call sceneDidEnterBackground:") })
        #expect(trace[background + 2].hasPrefix("call stateRestorationActivityForScene:"))
        #expect(sim.app("a").sessions.first?.restorationActivity?.state == Self.state)
        try sim.on("a", .terminate)
        try sim.on("a", .activate(session: nil))
        let connect = try #require(
            sim.last.entries.first {
                if case .callback(Selector.sceneWillConnect, _, _, _) = $0.body { true } else { false }
            })
        guard case .callback(_, _, let args, _) = connect.body else { return }
        #expect(connect.session == session)
        #expect(args["stateRestorationActivity"] == .object(["state": Self.state, "savedAt": .number(0)]))
        #expect(sim.app("a").sessions.first?.restorationActivity == nil, "offered once")
    }

    @Test("11.9 a scene that returns no activity keeps none; a force quit discards its session and the activity")
    func sceneActivityDiscarded() throws {
        var sim = Sim(ios: "13.0")
        sim.add(
            "a", returns: [Selector.sceneStateRestorationActivity: false], scenes: .standard,
            restorableState: Self.state)
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.app("a").sessions.first?.restorationActivity == nil)
        var kept = Sim(ios: "13.0")
        kept.add("a", scenes: .standard, restorableState: Self.state)
        try kept.on("a", .foregroundLaunch, .homeButton)
        try kept.on("a", .forceQuit)
        try kept.on("a", .foregroundLaunch)
        #expect(!kept.lastTrace().contains { $0.contains("stateRestorationActivity") })
        #expect(kept.app("a").sessions.allSatisfy { $0.restorationActivity == nil })
    }
}
