import Testing

@testable import LifecycleCore

@Suite("§5 Interruptions")
struct DeviceInterruptionsTests {
    @Test(
        "§5 an alert-style interruption makes the active app resign and stay inactive",
        arguments: InterruptionKind.allCases)
    func alertResigns(kind: InterruptionKind) throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.interruptionBegan(kind: kind))
        #expect(
            sim.last.entries.map(\.line) == [
                "device interruptionBegan",
                "call applicationWillResignActive: [active]",
                "post UIApplicationWillResignActiveNotification",
                "state active→inactive",
            ])
        #expect(sim.device.interruption == kind)
        try sim.onDevice(.wait(60))
        #expect(sim.state("a") == .inactive)
    }

    @Test("§5 interruptionEnded {accepted: false}: applicationDidBecomeActive:")
    func declined() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .interruptionBegan(kind: .call))
        try sim.onDevice(.interruptionEnded(accepted: false))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
        #expect(sim.device.interruption == nil)
    }

    @Test("§5 interruptionEnded {accepted: true} with multitasking: the app goes to the background")
    func acceptedMultitasking() throws {
        var sim = Sim(ios: "4.1")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .interruptionBegan(kind: .call))
        try sim.onDevice(.interruptionEnded(accepted: true))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "state inactive→background",
                "call applicationDidEnterBackground: [background]",
                "post UIApplicationDidEnterBackgroundNotification",
                "state background→suspended",
            ])
        #expect(sim.device.foregroundApp == nil)
    }

    @Test("§5 interruptionEnded {accepted: true} before 4.0: applicationWillTerminate:")
    func acceptedBefore4() throws {
        var sim = Sim(ios: "3.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .interruptionBegan(kind: .call))
        try sim.onDevice(.interruptionEnded(accepted: true))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationWillTerminate: [inactive]",
                "post UIApplicationWillTerminateNotification",
                "state inactive→notRunning",
                "end exited notified:true",
            ])
    }

    @Test("§5 a second interruption while one is up, or an end without one, is refused")
    func interruptionTransitions() throws {
        var sim = Sim(ios: "7.0")
        #expect(sim.rejection(nil, .interruptionEnded(accepted: false))?.code == .invalidTransition)
        try sim.onDevice(.interruptionBegan(kind: .sms))
        let before = sim.device
        #expect(sim.rejection(nil, .interruptionBegan(kind: .call))?.allowed == ["interruptionEnded"])
        #expect(sim.device == before)
    }

    @Test("§5 nothing comes in front during an interruption")
    func noForegroundDuringInterruption() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.onDevice(.interruptionBegan(kind: .alarm))
        #expect(sim.rejection("a", .foregroundLaunch)?.allowed == ["interruptionEnded"])
        try sim.on("a", .backgroundLaunch)
        #expect(sim.state("a") == .suspended)
    }

    @Test("§5 a banner from 5.0 changes nothing but still records a device entry")
    func banner() throws {
        var sim = Sim(ios: "5.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        let outcome = try sim.onDevice(.bannerNotification(title: "hello"))
        #expect(outcome.entries.count == 1)
        #expect(outcome.entries[0].body == .device(event: "bannerNotification", detail: ["title": "hello"]))
        #expect(sim.state("a") == .active)
    }

    @Test("§5 a banner before 5.0 is an alert: declined, the app becomes active again")
    func bannerAlertBefore5() throws {
        var sim = Sim(ios: "4.3")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .bannerNotification(title: nil), .interruptionEnded(accepted: false))
        #expect(
            sim.selectors("a") == Launch.ios3 + [
                Selector.didBecomeActive, Selector.willResignActive, Selector.didBecomeActive,
            ])
    }

    @Test("§5 Notification Center: opened resigns active, closed becomes active")
    func notificationCenter() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.notificationCenterOpened)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willResignActive])
        #expect(sim.state("a") == .inactive)
        #expect(sim.rejection("a", .touch) == nil)
        #expect(sim.last.entries.runLoop(of: "a") == [false])
        try sim.onDevice(.notificationCenterClosed)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.didBecomeActive])
        #expect(sim.state("a") == .active)
        #expect(sim.rejection(nil, .notificationCenterClosed)?.code == .invalidTransition)
    }

    /// How another app is started while Notification Center covers `b` (seed 000 §3.2).
    enum Start: String, CaseIterable, Sendable {
        case activate, switchApp, openURL

        func apply(to sim: inout Sim) throws(Rejection) {
            switch self {
            case .activate: try sim.on("a", .activate(session: nil))
            case .switchApp: try sim.onDevice(.switchApp(to: "a"))
            case .openURL: try sim.on("a", .open("a://x"))
            }
        }
    }

    @Test(
        "§5 another app started from Notification Center: it closes, the app in front goes straight to the background",
        arguments: Start.allCases)
    func startFromNotificationCenter(_ start: Start) throws {
        var sim = try Sim.aBehindB()
        var home = sim
        try sim.onDevice(.notificationCenterOpened)
        try start.apply(to: &sim)
        #expect(!sim.device.notificationCenterOpen)
        #expect(sim.device.foregroundApp == "a")
        #expect(sim.state("a") == .active)
        // b resigned when Notification Center opened; now only the background.
        #expect(
            sim.last.entries.trace(of: "b") == Sim.inactiveStraightToSuspended)
        // a comes back exactly as it would from the Home screen.
        try start.apply(to: &home)
        #expect(sim.last.entries.trace(of: "a") == home.last.entries.trace(of: "a"))
    }

    @Test(
        "§5 with an interruption over Notification Center, or a lock, another app is refused and nothing changes",
        arguments: Start.allCases)
    func notificationCenterUnderCover(_ start: Start) throws {
        // A lock closes Notification Center itself; an interruption leaves it open.
        for (cover, stillOpen) in [(Event.lock, false), (.interruptionBegan(kind: .alert), true)] {
            var sim = try Sim.aBehindB()
            try sim.onDevice(.notificationCenterOpened, cover)
            let before = sim.device
            #expect(throws: Rejection.self) { try start.apply(to: &sim) }
            #expect(sim.device == before)
            #expect(sim.device.notificationCenterOpen == stillOpen)
        }
    }

    @Test(
        "§5 a call accepted over Notification Center closes it: the app goes straight to the background, nothing covers the Home screen"
    )
    func callAcceptedOverNotificationCenter() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.notificationCenterOpened, .interruptionBegan(kind: .call))
        try sim.onDevice(.interruptionEnded(accepted: true))
        #expect(!sim.device.notificationCenterOpen)
        #expect(sim.device.foregroundApp == nil)
        #expect(sim.device.callSince != nil)
        #expect(sim.last.entries.trace(of: "a") == Sim.inactiveStraightToSuspended)
        #expect(sim.rejection(nil, .notificationCenterClosed)?.code == .invalidTransition)
        // Declined, the call leaves Notification Center where it was, over the app.
        var declined = Sim(ios: "7.0")
        declined.add("a")
        try declined.on("a", .foregroundLaunch)
        try declined.onDevice(
            .notificationCenterOpened, .interruptionBegan(kind: .call), .interruptionEnded(accepted: false))
        #expect(declined.device.notificationCenterOpen)
        #expect(declined.state("a") == .inactive)
    }

    @Test("§5 (chosen) a call accepted over the app switcher closes it too")
    func callAcceptedOverTheAppSwitcher() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.appSwitcherOpened, .interruptionBegan(kind: .call), .interruptionEnded(accepted: true))
        #expect(!sim.device.appSwitcherOpen)
        #expect(sim.device.foregroundApp == nil)
        #expect(sim.state("a") == .suspended)
    }

    @Test("§5 the app under Notification Center is not started: activate changes nothing, a URL reaches it inactive")
    func frontAppUnderNotificationCenter() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.notificationCenterOpened)
        #expect(try !sim.on("a", .activate(session: nil)).changed)
        try sim.on("a", .open("a://x"))
        #expect(
            sim.last.entries.trace(of: "a") == ["call application:openURL:sourceApplication:annotation: [inactive]"])
        #expect(sim.device.notificationCenterOpen)
        #expect(sim.state("a") == .inactive)
    }

    @Test("§5 lock from 5.0 without passcode: resign, background; unlock: the foreground path")
    func lockUnlockFrom5() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .lock)
        #expect(sim.device.locked)
        #expect(sim.device.protectedDataAvailable)
        #expect(sim.state("a") == .suspended)
        try sim.onDevice(.unlock)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "state suspended→background",
                "call applicationWillEnterForeground: [background]",
                "post UIApplicationWillEnterForegroundNotification",
                "state background→inactive",
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("§5 unlock during an alert brings the app back in front, inactive until the alert ends")
    func unlockDuringAlert() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .lock, .interruptionBegan(kind: .call))
        try sim.onDevice(.unlock)
        #expect(sim.state("a") == .inactive)
        #expect(sim.device.foregroundApp == "a")
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willEnterForeground])
        try sim.onDevice(.interruptionEnded(accepted: false))
        #expect(sim.last.entries.selectors(of: "a") == [Selector.didBecomeActive])
        #expect(sim.state("a") == .active)
    }

    @Test("§5 lock before 5.0: resign only; unlock: applicationDidBecomeActive:")
    func lockUnlockBefore5() throws {
        var sim = Sim(ios: "4.3")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .lock)
        #expect(sim.state("a") == .inactive)
        try sim.onDevice(.unlock)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.didBecomeActive])
        #expect(sim.state("a") == .active)
    }

    @Test("§5 lock with a passcode: running apps get protectedDataWillBecomeUnavailable, suspended ones get it queued")
    func lockWithPasscode() throws {
        var sim = Sim(ios: "7.0", passcode: true)
        sim.add("front")
        sim.add("sleeping")
        sim.add("old", ios: "3.1")
        try sim.on("sleeping", .foregroundLaunch, .homeButton)
        try sim.on("old", .foregroundLaunch, .homeButton)
        try sim.on("front", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(!sim.device.protectedDataAvailable)
        #expect(
            sim.last.entries.selectors(of: "front") == [
                Selector.willResignActive, Selector.didEnterBackground, Selector.protectedDataWillBecomeUnavailable,
            ])
        #expect(sim.last.entries.notificationNames(of: "front").last == Note.protectedDataWillBecomeUnavailable)
        #expect(sim.app("sleeping").queuedNotifications.map(\.name) == [Note.protectedDataWillBecomeUnavailable])
        #expect(sim.last.entries.of("sleeping").isEmpty)
        #expect(sim.last.entries.of("old").isEmpty)
    }

    @Test("§5 unlock with a passcode: protected data comes back, then the app that was in front returns")
    func unlockWithPasscode() throws {
        var sim = Sim(ios: "7.0", passcode: true)
        sim.add("a")
        sim.add("b", backgroundModes: ["audio"])
        try sim.on("b", .foregroundLaunch, .startBackgroundActivity(mode: "audio"), .homeButton)
        try sim.on("a", .foregroundLaunch, .lock)
        #expect(sim.app("a").queuedNotifications.isEmpty)
        try sim.onDevice(.unlock)
        #expect(sim.device.protectedDataAvailable)
        #expect(sim.last.entries.selectors(of: "b") == [Selector.protectedDataDidBecomeAvailable])
        #expect(
            sim.last.entries.trace(of: "a").prefix(5) == [
                "state suspended→background",
                "call applicationWillEnterForeground: [background]",
                "post UIApplicationWillEnterForegroundNotification",
                "call applicationProtectedDataDidBecomeAvailable: [background]",
                "queued UIApplicationProtectedDataDidBecomeAvailable",
            ])
        #expect(sim.state("a") == .active)
    }

    @Test("§5 lock then unlock with a passcode leaves nothing queued for an app suspended all along")
    func lockUnlockNetZero() throws {
        var sim = Sim(ios: "7.0", passcode: true)
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch, .lock)
        #expect(sim.app("a").queuedNotifications.count == 1)
        try sim.onDevice(.unlock)
        #expect(sim.app("a").queuedNotifications.isEmpty)
    }

    @Test("§5 lock and unlock with a passcode before 5.0: the inactive app hears protected data go and come back")
    func passcodeBefore5() throws {
        var sim = Sim(ios: "4.3", passcode: true)
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationWillResignActive: [active]",
                "post UIApplicationWillResignActiveNotification",
                "state active→inactive",
                "call applicationProtectedDataWillBecomeUnavailable: [inactive]",
                "post UIApplicationProtectedDataWillBecomeUnavailable",
            ])
        try sim.onDevice(.unlock)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationProtectedDataDidBecomeAvailable: [inactive]",
                "post UIApplicationProtectedDataDidBecomeAvailable",
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
    }

    @Test("§5 protected data callbacks exist from 4.0")
    func protectedDataFrom4() throws {
        var sim = Sim(ios: "3.1", passcode: true)
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .lock, .unlock)
        #expect(
            sim.selectors("a") == Launch.ios3 + [
                Selector.didBecomeActive, Selector.willResignActive, Selector.didBecomeActive,
            ])
    }

    @Test("§5 unlock on an unlocked device is refused; a second lock changes nothing")
    func lockTransitions() throws {
        var sim = Sim(ios: "7.0")
        #expect(sim.rejection(nil, .unlock)?.code == .invalidTransition)
        try sim.onDevice(.lock)
        let second = try sim.onDevice(.lock)
        #expect(second.changed == false)
    }

    @Test("§5 nothing comes in front while the device is locked")
    func lockedRefusesForeground() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.onDevice(.lock)
        let before = sim.device
        #expect(sim.rejection("a", .activate(session: nil))?.allowed == ["unlock"])
        #expect(sim.device == before)
    }
}
