import Testing

@testable import LifecycleCore

extension Event {
    static let activateNow = Event.activate(session: nil)
    static let alert = Event.interruptionBegan(kind: .alert)
    static let decline = Event.interruptionEnded(accepted: false)
    static let moveToTask = Event.beginBackgroundTask(name: "moveTo", duration: nil)
}

/// A starting situation of app `a`, built from ordinary events.
struct MoveStart: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () -> Sim
    var testDescription: String { name }

    static func start(_ name: String, _ sim: @escaping @Sendable () -> Sim, _ events: [Event], on app: String = "a")
        -> MoveStart
    {
        MoveStart(name: name) {
            var made = sim()
            try! made.apply(events, app: app, now: 0)
            return made
        }
    }

    static let plain: @Sendable () -> Sim = {
        var sim = Sim(ios: "17.0")
        sim.add("a", backgroundModes: ["audio", "fetch"], durations: [Selector.performFetch: 10])
        sim.add("b")
        return sim
    }
    static let delayed: @Sendable () -> Sim = {
        var sim = Sim(ios: "17.0", suspendDelay: 5)
        sim.add("a")
        return sim
    }
    static let scene: @Sendable () -> Sim = { Sim.scenes() }
}

/// One row: from a start, `moveTo {state: target}` applies exactly `expected`.
struct MoveCase: Sendable, CustomTestStringConvertible {
    let start: MoveStart
    let target: AppState
    let expected: [Event]
    var testDescription: String { "\(start.name) → \(target.rawValue)" }
}

enum MoveTable {
    typealias Paths = [AppState: [Event]]

    static func rows(_ start: MoveStart, _ paths: Paths) -> [MoveCase] {
        AppState.allCases.map { MoveCase(start: start, target: $0, expected: paths[$0]!) }
    }

    /// The paths from a not-running app on a device with `suspendDelay` 0.
    static let fromNotRunning: Paths = [
        .active: [.activateNow], .inactive: [.activateNow, .alert],
        .background: [.activateNow, .moveToTask, .homeButton], .suspended: [.backgroundLaunch], .notRunning: [],
    ]
    static let fromSuspended: Paths = [
        .active: [.activateNow], .inactive: [.activateNow, .alert],
        .background: [.activateNow, .moveToTask, .homeButton], .suspended: [], .notRunning: [.terminate],
    ]

    static let all: [MoveCase] =
        rows(.start("notRunning", MoveStart.plain, []), fromNotRunning)
        + rows(.start("notRunning after terminate", MoveStart.plain, [.foregroundLaunch, .terminate]), fromNotRunning)
        + rows(.start("notRunning, b in front", MoveStart.plain, [.foregroundLaunch], on: "b"), fromNotRunning)
        + rows(
            .start("active", MoveStart.plain, [.foregroundLaunch]),
            [
                .active: [], .inactive: [.alert], .background: [.moveToTask, .homeButton], .suspended: [.homeButton],
                .notRunning: [.terminate],
            ])
        + rows(
            .start("active with a task", MoveStart.plain, [.foregroundLaunch, .task("upload")]),
            [
                .active: [], .inactive: [.alert], .background: [.homeButton],
                .suspended: [.homeButton, .endBackgroundTask(task: 1)], .notRunning: [.terminate],
            ])
        + rows(
            .start("inactive under a call", MoveStart.plain, [.foregroundLaunch, .interruptionBegan(kind: .call)]),
            [
                .active: [.decline], .inactive: [], .background: [.moveToTask, .homeButton],
                .suspended: [.homeButton], .notRunning: [.terminate],
            ])
        + rows(
            .start(
                "inactive under Notification Center", MoveStart.plain, [.foregroundLaunch, .notificationCenterOpened]),
            [
                .active: [.notificationCenterClosed], .inactive: [],
                .background: [.moveToTask, .notificationCenterClosed, .homeButton],
                .suspended: [.notificationCenterClosed, .homeButton], .notRunning: [.terminate],
            ])
        + rows(
            .start("background with a task", MoveStart.plain, [.foregroundLaunch, .task("upload"), .homeButton]),
            [
                .active: [.activateNow], .inactive: [.activateNow, .alert], .background: [],
                .suspended: [.endBackgroundTask(task: 1)], .notRunning: [.terminate],
            ])
        + rows(
            .start(
                "background playing audio", MoveStart.plain,
                [.foregroundLaunch, .startBackgroundActivity(mode: "audio"), .homeButton]),
            [
                .active: [.activateNow], .inactive: [.activateNow, .alert], .background: [],
                .suspended: [.stopBackgroundActivity(mode: "audio")], .notRunning: [.terminate],
            ])
        + rows(
            .start(
                "background in a fetch window", MoveStart.plain, [.foregroundLaunch, .homeButton, .backgroundFetch]),
            [
                .active: [.activateNow], .inactive: [.activateNow, .alert], .background: [],
                .suspended: [.wait(10)], .notRunning: [.terminate],
            ])
        + rows(.start("suspended", MoveStart.plain, [.foregroundLaunch, .homeButton]), fromSuspended)
        + rows(
            .start("suspended, b in front", MoveStart.plain, [.foregroundLaunch, .switchApp(to: "b")]),
            fromSuspended)
        + rows(
            .start("notRunning, suspendDelay 5", MoveStart.delayed, []),
            [
                .active: [.activateNow], .inactive: [.activateNow, .alert],
                .background: [.backgroundLaunch, .moveToTask], .suspended: [.backgroundLaunch, .wait(5)],
                .notRunning: [],
            ])
        + rows(
            .start("background about to suspend, suspendDelay 5", MoveStart.delayed, [.foregroundLaunch, .homeButton]),
            [
                .active: [.activateNow], .inactive: [.activateNow, .alert], .background: [],
                .suspended: [.wait(5)], .notRunning: [.terminate],
            ])
        + rows(
            .start("suspended, suspendDelay 5", MoveStart.delayed, [.foregroundLaunch, .homeButton, .wait(5)]),
            fromSuspended)
        + rows(.start("scene app notRunning", MoveStart.scene, []), fromNotRunning)
        + rows(
            .start("scene app active", MoveStart.scene, [.foregroundLaunch]),
            [
                .active: [], .inactive: [.alert], .background: [.moveToTask, .homeButton], .suspended: [.homeButton],
                .notRunning: [.terminate],
            ])
        + rows(
            .start(
                "scene app inactive under an alarm", MoveStart.scene,
                [.foregroundLaunch, .interruptionBegan(kind: .alarm)]),
            [
                .active: [.decline], .inactive: [], .background: [.moveToTask, .homeButton],
                .suspended: [.homeButton], .notRunning: [.terminate],
            ])
        + rows(
            .start("scene app background with a task", MoveStart.scene, [.foregroundLaunch, .task(), .homeButton]),
            [
                .active: [.activateNow], .inactive: [.activateNow, .alert], .background: [],
                .suspended: [.endBackgroundTask(task: 1)], .notRunning: [.terminate],
            ])
        + rows(.start("scene app suspended", MoveStart.scene, [.foregroundLaunch, .homeButton]), fromSuspended)
}

@Suite("moveTo: the shortest path to a state (API.md)")
struct DeviceMoveToTests {
    @Test("every target from every starting state: the state reached, the path applied", arguments: MoveTable.all)
    func everyTarget(_ row: MoveCase) throws {
        var sim = row.start.make()
        let before = sim.device
        let outcome = try sim.on("a", .moveTo(state: row.target))
        #expect(outcome.applied == row.expected)
        #expect(sim.state("a") == row.target)
        #expect(outcome.changed == !row.expected.isEmpty)
        if row.expected.isEmpty { #expect(outcome.entries.isEmpty) }
        if row.target == .background, !row.expected.isEmpty {
            #expect(!sim.app("a").isIdle, "something keeps the app running")
        }
        if row.target == .inactive { #expect(sim.device.interruption != nil || sim.device.notificationCenterOpen) }
        // The path is exactly what a client posting it as one batch gets.
        var replay = before
        let batch = try replay.apply(row.expected, app: "a", now: 0)
        #expect(batch.entries == outcome.entries)
        #expect(replay == sim.device)
        // Once there, another moveTo to the same state changes nothing.
        let again = try sim.on("a", .moveTo(state: row.target))
        #expect(again.applied == [])
        #expect(!again.changed)
        #expect(again.entries.isEmpty)
    }

    @Test("a scene app's path moves its scenes: active in front, background after Home")
    func sceneStates() throws {
        var sim = Sim.scenes()
        try sim.on("a", .moveTo(state: .active))
        #expect(sim.sceneStates() == [.foregroundActive])
        try sim.on("a", .moveTo(state: .inactive))
        #expect(sim.sceneStates() == [.foregroundInactive])
        try sim.on("a", .moveTo(state: .background))
        #expect(sim.sceneStates() == [.background])
        #expect(sim.last.applied == [.moveToTask, .homeButton], "Home works under the alert")
        try sim.on("a", .moveTo(state: .notRunning))
        #expect(sim.sceneStates() == [.unattached])
        #expect(sim.sessions() == ["s1"], "terminate keeps the session")
    }

    @Test("a moveTo in a batch: applied lists every event of the batch, the moveTo replaced by its path")
    func inABatch() throws {
        var sim = MoveStart.plain()
        let outcome = try sim.on("a", .foregroundLaunch, .moveTo(state: .suspended), .touch)
        #expect(outcome.applied == [.foregroundLaunch, .homeButton, .touch])
        #expect(sim.state("a") == .suspended)
        let plain = try sim.on("a", .foregroundLaunch)
        #expect(plain.applied == nil, "applied only answers a request with a moveTo")
    }

    /// Blocked: the 409 names the step that cannot happen, and nothing changes.
    static func expectBlocked(
        _ sim: inout Sim, _ target: AppState, by step: Event, allowed: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = sim.device
        let rejection = sim.rejection("a", .moveTo(state: target))
        #expect(rejection?.code == .invalidTransition, sourceLocation: sourceLocation)
        #expect(rejection?.blockedBy == step, sourceLocation: sourceLocation)
        #expect(rejection?.detail.contains(step.type) == true, sourceLocation: sourceLocation)
        #expect(rejection?.allowed == allowed, sourceLocation: sourceLocation)
        #expect(rejection?.state == before.app("a")?.state, sourceLocation: sourceLocation)
        #expect(sim.device == before, "a refused moveTo changes nothing", sourceLocation: sourceLocation)
    }

    @Test(
        "the device locked: active, inactive and background are blocked by activate; notRunning and suspended are not")
    func locked() throws {
        var sim = MoveStart.plain()
        try sim.on("a", .foregroundLaunch, .homeButton, .lock)
        Self.expectBlocked(&sim, .active, by: .activateNow, allowed: ["unlock"])
        Self.expectBlocked(&sim, .inactive, by: .activateNow, allowed: ["unlock"])
        Self.expectBlocked(&sim, .background, by: .activateNow, allowed: ["unlock"])
        #expect(try sim.on("a", .moveTo(state: .notRunning)).applied == [.terminate])
        #expect(try sim.on("a", .moveTo(state: .suspended)).applied == [.backgroundLaunch])
    }

    @Test("before iOS 5 a locked app stays in front, inactive: Home cannot move it, nor can activate")
    func lockedInFront() throws {
        var sim = Sim(ios: "4.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .lock)
        #expect(sim.state("a") == .inactive)
        Self.expectBlocked(&sim, .active, by: .activateNow, allowed: ["unlock"])
        Self.expectBlocked(&sim, .suspended, by: .homeButton, allowed: ["unlock"])
        Self.expectBlocked(&sim, .background, by: .homeButton, allowed: ["unlock"])
    }

    @Test(
        "without multitasking nothing reaches background or suspended: from the foreground Home is named, else launch",
        arguments: ["device", "exitsOnSuspend", "iOS 3"])
    func noMultitasking(_ reason: String) throws {
        var sim = Sim(ios: reason == "iOS 3" ? "3.1" : "17.0", multitasking: reason != "device")
        sim.add("a", exitsOnSuspend: reason == "exitsOnSuspend")
        Self.expectBlocked(&sim, .suspended, by: .backgroundLaunch)
        Self.expectBlocked(&sim, .background, by: .backgroundLaunch)
        try sim.on("a", .moveTo(state: .active))
        Self.expectBlocked(&sim, .suspended, by: .homeButton)
        Self.expectBlocked(&sim, .background, by: .homeButton)
        #expect(try sim.on("a", .moveTo(state: .inactive)).applied == [.alert])
    }

    @Test("a step that ends the app blocks: the iOS 27 gate, a launch watchdog; nothing of it stays")
    func stepsThatEndTheApp() throws {
        var gated = Sim(ios: "27.0")
        gated.add("a")
        Self.expectBlocked(&gated, .active, by: .activateNow)
        Self.expectBlocked(&gated, .suspended, by: .backgroundLaunch)
        #expect(gated.app("a").termination == nil)
        var slow = Sim(ios: "17.0")
        slow.add("a", durations: [Selector.didFinishLaunchingWithOptions: 25])
        Self.expectBlocked(&slow, .inactive, by: .activateNow)
        #expect(slow.rejection("a", .moveTo(state: .active))?.detail.contains("watchdog") == true)
    }

    @Test("not enough memory blocks at activate, with the launch's own reason")
    func memory() throws {
        var sim = Sim(ios: "17.0", memoryMB: 100)
        sim.add("a", memoryMB: 200)
        Self.expectBlocked(&sim, .active, by: .activateNow)
        #expect(sim.rejection("a", .moveTo(state: .active))?.detail.contains("not enough memory") == true)
    }

    @Test("a fetch window past its 30 s limit ends in a watchdog kill: suspended is blocked at advanceTime")
    func windowWatchdog() throws {
        var sim = Sim(ios: "17.0")
        sim.add("a", backgroundModes: ["fetch"], durations: [Selector.performFetch: 40])
        try sim.on("a", .foregroundLaunch, .homeButton, .backgroundFetch)
        Self.expectBlocked(&sim, .suspended, by: .wait(30))
    }

    @Test("a refused moveTo in a batch rolls the whole batch back and names its index")
    func refusedInABatch() throws {
        var sim = MoveStart.plain()
        let before = sim.device
        let rejection = sim.rejection("a", .foregroundLaunch, .lock, .moveTo(state: .active))
        #expect(rejection?.index == 2)
        #expect(rejection?.state == .notRunning)
        #expect(sim.device == before)
    }
}
