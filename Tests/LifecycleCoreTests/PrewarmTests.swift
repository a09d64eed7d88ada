import Foundation
import Testing

@testable import LifecycleCore

/// LIFECYCLE §12: prewarming (iOS 15 and later) and the first unlock after a restart.
@Suite("§12 Prewarming and the first unlock")
struct PrewarmTests {
    static let prewarm = Event.prewarm(stage: nil)

    @Test(
        "12.1 a scene app is prewarmed through didFinishLaunching: the launch callbacks in the background, no scene, suspended"
    )
    func sceneAppPrewarm() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a", scenes: .standard)
        try sim.on("a", Self.prewarm)
        #expect(sim.trace("a") == Steps.cold + ["state background→suspended"])
        #expect(sim.app("a").prewarmStage == .didFinishLaunching)
        #expect(sim.app("a").sessions.isEmpty)
    }

    @Test("12.1 an app-delegate app is prewarmed up to main: no delegate method runs, then it is suspended")
    func appDelegatePrewarm() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a")
        try sim.on("a", Self.prewarm)
        #expect(sim.trace("a") == ["state notRunning→background", "state background→suspended"])
        #expect(sim.app("a").prewarmStage == .main)
    }

    @Test("12.1 the stage given replaces the observed rule")
    func stageGiven() throws {
        var sim = Sim(ios: "18.0")
        sim.add("a")
        sim.add("b", scenes: .standard)
        try sim.on("a", .prewarm(stage: .didFinishLaunching))
        try sim.on("b", .prewarm(stage: .main))
        #expect(
            sim.entries.selectors(of: "a") == [
                Selector.willFinishLaunchingWithOptions, Selector.didFinishLaunchingWithOptions,
            ])
        #expect(sim.entries.selectors(of: "b").isEmpty)
        #expect(sim.state("a") == .suspended)
        #expect(sim.state("b") == .suspended)
    }

    @Test(
        "12.1 the user's launch of a scene app goes on from the prewarm: Connect and come forward, no launch callbacks")
    func sceneAppLaunchAfterPrewarm() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a", scenes: .standard)
        try sim.on("a", Self.prewarm)
        try sim.on("a", .foregroundLaunch)
        #expect(sim.lastTrace() == ["state suspended→background"] + Steps.connect("s1") + Steps.comeForward("s1"))
        #expect(sim.app("a").prewarmStage == nil)
    }

    @Test("12.1 the user's launch of an app prewarmed up to main runs the launch callbacks then, in front")
    func appDelegateLaunchAfterPrewarm() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a")
        try sim.on("a", Self.prewarm)
        try sim.on("a", .foregroundLaunch)
        #expect(
            sim.lastTrace() == ["state suspended→background", "state background→inactive"]
                + Sim.launchCallbacksThenActive)
        #expect(sim.app("a").prewarmStage == nil)
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("12.1 an app-delegate app prewarmed through didFinishLaunching comes back as from the background")
    func appDelegateResumeAfterFullPrewarm() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a")
        try sim.on("a", .prewarm(stage: .didFinishLaunching))
        try sim.on("a", .activate(session: nil))
        #expect(
            sim.last.entries.selectors(of: "a") == [Selector.willEnterForeground, Selector.didBecomeActive])
        #expect(sim.app("a").prewarmStage == nil)
    }

    @Test("12.1 a wake in the background of an app prewarmed up to main runs the launch callbacks before the fetch")
    func backgroundWakeAfterPrewarm() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a", backgroundModes: ["fetch"])
        try sim.on("a", Self.prewarm)
        try sim.on("a", .backgroundFetch)
        #expect(
            sim.last.entries.selectors(of: "a") == [
                Selector.willFinishLaunchingWithOptions, Selector.didFinishLaunchingWithOptions, Selector.performFetch,
            ])
        #expect(sim.app("a").prewarmStage == nil)
    }

    @Test("12.1 prewarming needs iOS 15 and an app that is not running; a refusal changes nothing")
    func prewarmRefused() throws {
        var old = Sim(ios: "14.8")
        old.add("a")
        #expect(throws: Rejection.self) { try old.on("a", Self.prewarm) }
        #expect(old.state("a") == .notRunning)
        var sim = Sim(ios: "15.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        #expect(throws: Rejection.self) { try sim.on("a", Self.prewarm) }
        #expect(sim.state("a") == .active)
    }

    @Test("12.1 an app that exits on suspend is never prewarmed")
    func exitsOnSuspendRefused() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a", exitsOnSuspend: true)
        #expect(throws: Rejection.self) { try sim.on("a", Self.prewarm) }
        #expect(sim.state("a") == .notRunning)
        #expect(sim.entries.isEmpty)
    }

    @Test("12.1 any end of the process ends the prewarm")
    func terminationEndsPrewarm() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a")
        try sim.on("a", Self.prewarm, .terminate)
        #expect(sim.app("a").prewarmStage == nil)
        #expect(sim.state("a") == .notRunning)
    }

    @Test("12.2 a restart leaves protected data unavailable until the first unlock, on a device with a passcode")
    func restartBeforeFirstUnlock() throws {
        var sim = Sim(ios: "15.0", passcode: true)
        sim.add("a")
        try sim.onDevice(.reboot)
        #expect(!sim.device.protectedDataAvailable)
        #expect(sim.device.firstUnlockPending == true)
        #expect(!sim.device.locked)
        try sim.onDevice(.unlock)
        #expect(sim.device.protectedDataAvailable)
        #expect(sim.device.firstUnlockPending == nil)
        var open = Sim(ios: "15.0", passcode: false)
        try open.onDevice(.reboot)
        #expect(open.device.protectedDataAvailable)
        #expect(open.device.firstUnlockPending == nil)
    }

    @Test(
        "12.2 reboot, prewarm, launch: the launch is the first unlock, and protected data becomes available before applicationDidBecomeActive:"
    )
    func rebootPrewarmLaunch() throws {
        var sim = Sim(ios: "15.0", passcode: true)
        sim.add("a")
        sim.add("b", scenes: .standard)
        try sim.onDevice(.reboot)
        try sim.on("a", Self.prewarm)
        try sim.on("b", Self.prewarm)
        #expect(!sim.device.protectedDataAvailable)
        try sim.on("b", .foregroundLaunch)
        let selectors = sim.last.entries.selectors(of: "b")
        #expect(selectors.first == Selector.protectedDataDidBecomeAvailable)
        #expect(selectors.last == Selector.sceneDidBecomeActive)
        #expect(
            sim.last.entries.trace(of: "b").contains("queued UIApplicationProtectedDataDidBecomeAvailable"))
        // The other prewarmed app, still suspended, has it queued for when it runs.
        #expect(sim.app("a").queuedNotifications.map(\.name) == ["UIApplicationProtectedDataDidBecomeAvailable"])
        #expect(sim.device.protectedDataAvailable)
    }

    @Test("12.2 a lock before the first unlock tells no app again; the unlock makes protected data available")
    func lockBeforeFirstUnlock() throws {
        var sim = Sim(ios: "15.0", passcode: true)
        sim.add("a", backgroundModes: ["audio"])
        try sim.onDevice(.reboot)
        try sim.on("a", .prewarm(stage: .didFinishLaunching))
        try sim.onDevice(.lock)
        #expect(sim.app("a").queuedNotifications.isEmpty)
        try sim.onDevice(.unlock)
        #expect(sim.app("a").queuedNotifications.map(\.name) == ["UIApplicationProtectedDataDidBecomeAvailable"])
        #expect(sim.device.protectedDataAvailable)
    }

    @Test("12 a prewarmed app and a device before its first unlock survive a save and a load")
    func codable() throws {
        var sim = Sim(ios: "15.0", passcode: true)
        sim.add("a")
        try sim.onDevice(.reboot)
        try sim.on("a", Self.prewarm)
        let loaded = try JSONDecoder().decode(Device.self, from: JSONEncoder().encode(sim.device))
        #expect(loaded == sim.device)
        #expect(loaded.app("a")?.prewarmStage == .main)
        #expect(loaded.firstUnlockPending == true)
    }
}
