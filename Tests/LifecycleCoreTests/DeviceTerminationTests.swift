import Testing

@testable import LifecycleCore

@Suite("§9 Termination and memory")
struct DeviceTerminationTests {
    @Test("§9 terminate: a running app gets applicationWillTerminate:", arguments: [AppState.active, .background])
    func terminateRunning(state: AppState) throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task())
        if state == .background { try sim.onDevice(.homeButton) }
        try sim.onDevice(.wait(2))
        try sim.on("a", .terminate)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationWillTerminate: [\(state)]",
                "post UIApplicationWillTerminateNotification",
                "state \(state)→notRunning",
                "end terminated notified:true",
            ])
        #expect(
            sim.app("a").termination
                == Termination(reason: .terminated, time: 2, notified: true, foreground: state == .active))
        #expect(sim.app("a").backgroundTasks.isEmpty)
        #expect(sim.device.foregroundApp == nil)
    }

    @Test("§9 terminate: a suspended app gets nothing; a not-running one changes nothing")
    func terminateSuspended() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .terminate)
        #expect(sim.last.entries.trace(of: "a") == ["state suspended→notRunning", "end terminated notified:false"])
        #expect(try sim.on("b", .terminate) == Outcome(entries: [], changed: false))
    }

    @Test(
        "§9 forceQuit: no callback whatever the state; an active app first resigns active",
        arguments: [AppState.active, .inactive, .background, .suspended])
    func forceQuit(state: AppState) throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", backgroundModes: ["audio"])
        try sim.on("a", .foregroundLaunch)
        switch state {
        case .inactive: try sim.onDevice(.interruptionBegan(kind: .sms))
        case .background: try sim.on("a", .startBackgroundActivity(mode: "audio"), .homeButton)
        case .suspended: try sim.onDevice(.homeButton)
        default: break
        }
        #expect(sim.state("a") == state)
        try sim.on("a", .forceQuit)
        let expected = (state == .active ? [Selector.willResignActive] : [])
        #expect(sim.last.entries.selectors(of: "a") == expected)
        #expect(
            sim.last.entries.trace(of: "a").suffix(2) == [
                "state \(state == .active ? AppState.inactive : state)→notRunning",
                "end forceQuit notified:false 0xdeadfa11",
            ])
        #expect(sim.app("a").termination?.notified == false)
    }

    @Test("§9 crash and reboot: no callback, each sets termination")
    func crashAndReboot() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .crash)
        #expect(sim.last.entries.trace(of: "a") == ["state active→notRunning", "end crash notified:false"])
        #expect(sim.device.foregroundApp == nil)
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch, .lock)
        try sim.onDevice(.reboot)
        #expect(sim.last.entries.filter(\.isCallback).isEmpty)
        #expect(sim.app("a").termination == Termination(reason: .reboot, time: 0, notified: false, foreground: false))
        #expect(sim.app("b").termination?.reason == .reboot)
        #expect(!sim.device.locked)
        #expect(sim.device.foregroundApp == nil)
    }

    @Test("§9 a launch clears the last termination")
    func launchClearsTermination() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .crash, .foregroundLaunch)
        #expect(sim.app("a").termination == nil)
    }

    @Test("§9 watchdog: launch callbacks together get 20 s; past it the app is killed at the limit, 0x8badf00d")
    func launchWatchdog() throws {
        var sim = Sim(ios: "7.0")
        sim.add(
            "a", durations: [Selector.willFinishLaunchingWithOptions: 12, Selector.didFinishLaunchingWithOptions: 9])
        try sim.on("a", .foregroundLaunch)
        #expect(
            sim.trace("a") == [
                "state notRunning→inactive",
                "call application:willFinishLaunchingWithOptions: [inactive]",
                "call application:didFinishLaunchingWithOptions: [inactive]",
                "state inactive→notRunning",
                "end watchdog notified:false 0x8badf00d",
            ])
        #expect(
            sim.app("a").termination == Termination(reason: .watchdog, time: 20, notified: false, foreground: true))
        #expect(sim.device.foregroundApp == nil)
    }

    @Test("§9 watchdog: launch callbacks taking exactly 20 s together are fine, and take their time")
    func launchAtLimit() throws {
        var sim = Sim(ios: "7.0")
        sim.add(
            "a", durations: [Selector.willFinishLaunchingWithOptions: 10, Selector.didFinishLaunchingWithOptions: 10])
        try sim.on("a", .foregroundLaunch)
        #expect(sim.state("a") == .active)
        #expect(sim.time == 20)
        #expect(sim.entries.of("a").map(\.time) == [0, 0, 10, 20, 20, 20, 20])
    }

    @Test("§9 watchdog: applicationDidEnterBackground: gets 5 s")
    func didEnterBackgroundWatchdog() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", durations: [Selector.didEnterBackground: 7])
        sim.add("b", durations: [Selector.didEnterBackground: 5])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(
            sim.app("a").termination == Termination(reason: .watchdog, time: 5, notified: false, foreground: false))
        #expect(sim.last.entries.notificationNames(of: "a").last == Note.willResignActive)
        try sim.on("b", .foregroundLaunch, .homeButton)
        #expect(sim.state("b") == .suspended)
    }

    @Test("§9 watchdog: applicationWillTerminate: gets 5 s")
    func willTerminateWatchdog() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", durations: [Selector.willTerminate: 6])
        try sim.on("a", .foregroundLaunch, .terminate)
        #expect(
            sim.last.entries.trace(of: "a").suffix(3) == [
                "call applicationWillTerminate: [active]",
                "state active→notRunning",
                "end watchdog notified:true 0x8badf00d",
            ])
        #expect(sim.app("a").termination?.time == 5)
    }

    @Test(
        "§9 watchdog: a fetch window past 30 s is killed at 30 s; exactly 30 s is fine",
        arguments: [
            (Event.backgroundFetch, Selector.performFetch),
            (.contentAvailablePush, Selector.didReceiveRemoteNotificationFetch),
        ])
    func windowWatchdog(event: Event, selector: String) throws {
        var sim = Sim(ios: "7.0")
        sim.add("slow", backgroundModes: ["fetch", "remote-notification"], durations: [selector: 31])
        sim.add("ok", backgroundModes: ["fetch", "remote-notification"], durations: [selector: 30])
        try sim.on("slow", event)
        try sim.on("ok", event)
        #expect(sim.time == 0)
        #expect(sim.device.nextDeadline == 30)
        try sim.onDevice(.wait(40))
        #expect(
            sim.app("slow").termination == Termination(reason: .watchdog, time: 30, notified: false, foreground: false)
        )
        #expect(sim.state("ok") == .suspended)
        #expect(sim.app("ok").termination == nil)
    }

    @Test("§9 memoryPressure warning: every running app gets applicationDidReceiveMemoryWarning:")
    func memoryWarning() throws {
        var sim = Sim(ios: "7.0")
        sim.add("front")
        sim.add("back")
        sim.add("sleep")
        try sim.on("sleep", .foregroundLaunch, .homeButton)
        try sim.on("back", .foregroundLaunch, .task(), .homeButton)
        try sim.on("front", .foregroundLaunch)
        try sim.onDevice(.memoryPressure(level: .warning))
        #expect(sim.last.entries.compactMap { $0.isCallback ? $0.app : nil } == ["front", "back"])
        #expect(sim.last.entries.notificationNames(of: "back") == [Note.memoryWarning])
        #expect(sim.state("sleep") == .suspended)
    }

    @Test("§9 critical: suspended apps purged, then the largest background app terminated, then the running warned")
    func critical() throws {
        var sim = Sim(ios: "7.0")
        sim.add("small", memoryMB: 100)
        sim.add("large", memoryMB: 300)
        sim.add("sleep", memoryMB: 50)
        sim.add("front", memoryMB: 10)
        try sim.on("sleep", .foregroundLaunch, .homeButton)
        try sim.on("small", .foregroundLaunch, .task(), .homeButton)
        try sim.on("large", .foregroundLaunch, .task(), .homeButton)
        try sim.on("front", .foregroundLaunch)
        try sim.onDevice(.memoryPressure(level: .critical))
        let lines = sim.last.entries.dropFirst().map { "\($0.app!) \($0.line)" }
        #expect(
            lines == [
                "sleep state suspended→notRunning",
                "sleep end memoryPressure notified:false",
                "large call applicationWillTerminate: [background]",
                "large post UIApplicationWillTerminateNotification",
                "large state background→notRunning",
                "large end memoryPressure notified:true",
                "small call applicationDidReceiveMemoryWarning: [background]",
                "small post UIApplicationDidReceiveMemoryWarningNotification",
                "front call applicationDidReceiveMemoryWarning: [active]",
                "front post UIApplicationDidReceiveMemoryWarningNotification",
            ])
    }

    @Test("§9 a launch that does not fit purges suspended apps largest first, no callback")
    func purgeLargestFirst() throws {
        var sim = Sim(ios: "7.0", memoryMB: 400)
        sim.add("a", memoryMB: 100)
        sim.add("b", memoryMB: 200)
        sim.add("c", memoryMB: 50)
        sim.add("d", memoryMB: 300)
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch, .homeButton)
        try sim.on("c", .foregroundLaunch, .homeButton)
        try sim.on("d", .foregroundLaunch)
        let ends = sim.last.entries.filter { if case .termination = $0.body { true } else { false } }
        #expect(ends.map { $0.app! } == ["b", "a"])
        #expect(ends.map(\.line) == ["end memoryPressure notified:false", "end memoryPressure notified:false"])
        #expect(sim.state("c") == .suspended)
        #expect(sim.state("d") == .active)
        #expect(sim.device.memoryInUseMB == 350)
    }

    @Test("§9 then background apps are terminated largest first, with applicationWillTerminate:")
    func terminateBackgroundForMemory() throws {
        var sim = Sim(ios: "7.0", memoryMB: 400)
        sim.add("a", memoryMB: 100)
        sim.add("b", memoryMB: 150)
        sim.add("c", memoryMB: 100)
        sim.add("d", memoryMB: 250)
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch, .task(), .homeButton)
        try sim.on("c", .foregroundLaunch, .task(), .homeButton)
        try sim.on("d", .foregroundLaunch)
        #expect(sim.app("a").termination?.notified == false)
        #expect(
            sim.app("b").termination == Termination(reason: .memoryPressure, time: 0, notified: true, foreground: false)
        )
        #expect(sim.last.entries.selectors(of: "b") == [Selector.willTerminate])
        #expect(sim.state("c") == .background)
        #expect(sim.state("d") == .active)
    }

    @Test("§9 a launch that cannot fit even after purging is refused and changes nothing")
    func launchDoesNotFit() throws {
        var sim = Sim(ios: "7.0", memoryMB: 300)
        sim.add("a", memoryMB: 100)
        sim.add("huge", memoryMB: 301)
        try sim.on("a", .foregroundLaunch)
        let before = sim.device
        let rejection = sim.rejection("huge", .foregroundLaunch)
        #expect(rejection?.code == .invalidTransition)
        #expect(rejection?.state == .notRunning)
        #expect(sim.device == before)
    }

    @Test("§9 app-level memoryWarning: the running app gets applicationDidReceiveMemoryWarning:")
    func appMemoryWarning() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        #expect(sim.rejection("a", .memoryWarning)?.state == .notRunning)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .memoryWarning)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationDidReceiveMemoryWarning: [active]",
                "post UIApplicationDidReceiveMemoryWarningNotification",
            ])
    }
}
