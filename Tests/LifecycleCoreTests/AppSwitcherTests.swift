import Testing

@testable import LifecycleCore

/// §5: the app switcher, shown over the app in front without ending it (seed 003 step 6).
@Suite struct AppSwitcherTests {
    @Test("§5 opened: the app in front resigns active and stays in front; closed: it becomes active again")
    func openAndClose() throws {
        var sim = try Sim.aBehindB()
        try sim.onDevice(.appSwitcherOpened)
        #expect(sim.device.appSwitcherOpen)
        #expect(sim.state("b") == .inactive)
        #expect(sim.device.foregroundApp == "b")
        #expect(sim.last.entries.selectors(of: "b") == [Selector.willResignActive])
        try sim.onDevice(.appSwitcherClosed)
        #expect(sim.last.entries.selectors(of: "b") == [Selector.didBecomeActive])
        #expect(!sim.device.appSwitcherOpen)
        #expect(sim.rejection(nil, .appSwitcherClosed)?.code == .invalidTransition)
    }

    @Test(
        "§5 another app picked in the switcher comes in front; the app that was there goes straight to the background")
    func pickAnother() throws {
        var sim = try Sim.aBehindB()
        try sim.onDevice(.appSwitcherOpened)
        try sim.on("a", .activate(session: nil))
        #expect(!sim.device.appSwitcherOpen)
        #expect(sim.state("a") == .active)
        #expect(!sim.last.entries.selectors(of: "b").contains(Selector.willResignActive))
        #expect(sim.last.entries.trace(of: "b") == Sim.inactiveStraightToSuspended)
    }

    @Test("§5 the card of the app in front, or Home (chosen), brings that app back active")
    func backToTheFrontApp() throws {
        for back in [Event.activate(session: nil), .homeButton] {
            var sim = try Sim.aBehindB()
            try sim.onDevice(.appSwitcherOpened)
            try sim.on("b", back)
            #expect(!sim.device.appSwitcherOpen, "\(back)")
            #expect(sim.state("b") == .active, "\(back)")
            #expect(sim.last.entries.selectors(of: "b") == [Selector.didBecomeActive], "\(back)")
        }
    }

    @Test("§5 (chosen) a tap on a notification over the switcher closes it")
    func notificationTap() throws {
        var sim = try Sim.aBehindB()
        try sim.onDevice(.appSwitcherOpened)
        try sim.on("a", .tapNotification(source: .banner, payload: nil))
        #expect(!sim.device.appSwitcherOpen)
        #expect(sim.state("a") == .active)
        #expect(sim.last.entries.trace(of: "b") == Sim.inactiveStraightToSuspended)
    }

    @Test("§5 force-quitting from the switcher ends the app; the switcher stays until closed")
    func forceQuitFromIt() throws {
        var sim = try Sim.aBehindB()
        try sim.onDevice(.appSwitcherOpened)
        try sim.on("b", .forceQuit)
        #expect(sim.state("b") == .notRunning)
        #expect(sim.device.appSwitcherOpen)
    }

    @Test("§5 before iOS 4.0, without multitasking, locked, under an interruption or Notification Center: refused")
    func refused() throws {
        var old = try Sim.aBehindB(ios: "3.0")
        #expect(old.rejection(nil, .appSwitcherOpened)?.code == .invalidTransition)
        var single = try Sim.aBehindB(multitasking: false)
        #expect(single.rejection(nil, .appSwitcherOpened)?.code == .invalidTransition)
        for cover in [Event.lock, .interruptionBegan(kind: .sms), .notificationCenterOpened] {
            var sim = try Sim.aBehindB()
            try sim.onDevice(cover)
            #expect(sim.rejection(nil, .appSwitcherOpened)?.code == .invalidTransition, "\(cover)")
        }
        // A lock while it shows closes it.
        var locked = try Sim.aBehindB()
        try locked.onDevice(.appSwitcherOpened, .lock)
        #expect(!locked.device.appSwitcherOpen)
    }

    @Test("§11 a scene app under the switcher: its scene deactivates, and comes back active")
    func scenes() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.appSwitcherOpened)
        #expect(sim.sceneStates() == [.foregroundInactive])
        try sim.on("a", .activate(session: nil))
        #expect(sim.sceneStates() == [.foregroundActive])
        #expect(!sim.device.appSwitcherOpen)
    }
}
