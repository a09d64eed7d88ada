import Testing

@testable import LifecycleCore

/// LIFECYCLE §11.7, §11.8 and §11.11: coming back, which scenes come forward, Home, lock and overlays.
@Suite("§11.7, 11.8, 11.11 Scenes: back to the foreground, targets, Home, lock, interruptions")
struct SceneForegroundTests {
    @Test("11.7 Home then activate: the connected scene comes back without reconnecting")
    func homeAndBack() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(sim.lastTrace() == Steps.goBack("s1") + ["state background→suspended"])
        try sim.on("a", .activate(session: nil))
        #expect(sim.lastTrace() == ["state suspended→background"] + Steps.comeForward("s1"))
    }

    @Test("11.7 (chosen) a suspended app gets its queue before any scene callback")
    func queueFirst() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton, .change(kind: .orientation, value: "landscapeLeft"))
        try sim.on("a", .activate(session: nil))
        #expect(
            Array(sim.lastTrace().prefix(3)) == [
                "state suspended→background", "queued \(Note.orientation)",
                "call sceneWillEnterForeground: [background] s1:background",
            ])
    }

    @Test(
        "11.7 (chosen) a URL for a connected background scene: openURLContexts while foregroundInactive, then Activate")
    func urlToConnectedScene() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .open("a://x"))
        let calls = sim.lastTrace().filter { $0.hasPrefix("call") }
        #expect(
            calls == [
                "call sceneWillEnterForeground: [background] s1:background",
                "call scene:openURLContexts: [inactive] s1:foregroundInactive",
                "call sceneDidBecomeActive: [active] s1:foregroundActive",
            ])
    }

    @Test("11.7 openURL on a foregroundActive scene: only scene:openURLContexts:, no state change")
    func urlToActiveScene() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .open("a://y"))
        #expect(sim.lastTrace() == ["call scene:openURLContexts: [active] s1:foregroundActive"])
    }

    @Test("11.7 a disconnected scene reconnects when it comes forward, without configurationForConnecting")
    func reconnect() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton, .disconnectScene(session: "s1"))
        try sim.on("a", .activate(session: nil))
        #expect(
            sim.lastTrace() == ["state suspended→background"] + Steps.connect("s1", new: false)
                + Steps.comeForward("s1"))
    }

    @Test("11.8 activate {session} brings that session; targets already in front change nothing")
    func activateSession() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .homeButton)
        try sim.on("a", .activate("s2"))
        #expect(sim.sceneStates() == [.background, .foregroundActive])
        let outcome = try sim.on("a", .activate("s2"))
        #expect(!outcome.changed)
    }

    @Test("11.8 (chosen) a target replacing the front scenes: no app-level background or foreground notification")
    func replaceFront() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .openScene(placement: .fullScreen))
        #expect(sim.sceneStates() == [.background, .foregroundActive])
        let notes = sim.lastTrace().filter { $0.hasPrefix("post UIApplication") }
        #expect(notes == ["post \(Note.willResignActive)", "post \(Note.didBecomeActive)"])
        #expect(!sim.lastTrace().contains { $0.hasPrefix("state") && $0.contains("background") })
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("11.8 the last foreground set comes back together")
    func lastForegroundSet() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .homeButton)
        try sim.on("a", .activate(session: nil))
        #expect(sim.sceneStates() == [.foregroundActive, .foregroundActive])
        #expect(sim.lastTrace().filter { $0 == "post \(Note.willEnterForeground)" }.count == 1)
    }

    @Test("11.8 (chosen) a cold launch brings back only the most recently activated session")
    func coldLaunchBringsTheMostRecent() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .homeButton, .activate("s1"), .terminate)
        try sim.on("a", .foregroundLaunch)
        #expect(sim.sceneStates() == [.foregroundActive, .unattached])
        #expect(!sim.lastTrace().contains { $0.contains(Selector.configurationForConnecting) })
    }

    @Test("11.8 (chosen) a URL without session goes to the most recently activated of the scenes coming forward")
    func urlTarget() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .homeButton)
        try sim.on("a", .open("a://x"))
        #expect(sim.lastTrace().contains("call scene:openURLContexts: [inactive] s2:foregroundInactive"))
        try sim.on("a", .open("a://y", session: "s1"))
        #expect(sim.lastTrace() == ["call scene:openURLContexts: [active] s1:foregroundActive"])
    }

    @Test("11.11 lock sends the front scenes to the background; unlock brings the same set back")
    func lockAndUnlock() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .lock)
        #expect(sim.app("a").state == .suspended)
        try sim.onDevice(.unlock)
        #expect(sim.sceneStates() == [.foregroundActive])
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("11.11 unlocking under Notification Center brings the scenes back inactive; closing it activates them")
    func unlockUnderNotificationCenter() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .lock, .notificationCenterOpened, .unlock)
        #expect(sim.sceneStates() == [.foregroundInactive])
        #expect(sim.app("a").state == .inactive)
        try sim.on("a", .notificationCenterClosed)
        #expect(sim.app("a").state == .active)
    }

    @Test("11.11 protected data stays app-level: a scene app gets the app-delegate methods on lock and unlock")
    func protectedDataStaysAppLevel() throws {
        var sim = Sim(ios: "13.0", passcode: true, suspendDelay: 5)
        sim.add("a", scenes: .standard)
        try sim.on("a", .foregroundLaunch, .lock)
        #expect(sim.selectors("a").last == Selector.protectedDataWillBecomeUnavailable)
        try sim.on("a", .unlock)
        #expect(sim.lastTrace().first == "call \(Selector.protectedDataDidBecomeAvailable) [background]")
        #expect(sim.app("a").state == .active)
    }

    @Test("11.11 an alert: the active scenes deactivate and stay inactive; declined, they activate again")
    func alertDeclined() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.interruptionBegan(kind: .call))
        #expect(sim.sceneStates() == [.foregroundInactive])
        #expect(sim.app("a").state == .inactive)
        try sim.onDevice(.interruptionEnded(accepted: false))
        #expect(
            sim.lastTrace().filter { $0.hasPrefix("call") } == [
                "call sceneDidBecomeActive: [active] s1:foregroundActive"
            ])
    }

    @Test("11.11 an accepted call sends each scene to the background, as on Home")
    func alertAccepted() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .interruptionBegan(kind: .call), .interruptionEnded(accepted: true))
        #expect(sim.sceneStates() == [.background])
        try sim.on("a", .activate(session: nil))
        #expect(sim.sceneStates() == [.foregroundActive])
    }

    @Test("11.11 Notification Center deactivates the active scenes; closing it activates them")
    func notificationCenter() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .notificationCenterOpened)
        #expect(sim.sceneStates() == [.foregroundInactive])
        try sim.on("a", .notificationCenterClosed)
        #expect(sim.sceneStates() == [.foregroundActive])
    }

    @Test("11.11 the run loop stays app-level: touches while a scene is active, redraws coalesced in the background")
    func runLoop() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .touch, .homeButton, .runLoop(.redraw), .runLoop(.redraw))
        try sim.on("a", .activate(session: nil))
        #expect(sim.lastTrace().last == "runloop redraw true ×2")
        #expect(sim.entries.runLoop(of: "a").first == true)
    }
}
