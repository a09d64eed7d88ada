import Testing

@testable import LifecycleCore

/// LIFECYCLE §11.9 and §11.10: system disconnection, closing and discarding, termination.
@Suite("§11.9–11.10 Scenes: disconnect, close, discard, termination")
struct SceneDiscardTests {
    @Test("11.9 disconnectScene: a suspended app resumes, the scene disconnects, the session stays, the app suspends")
    func systemDisconnect() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .disconnectScene(session: "s1"))
        #expect(
            sim.lastTrace() == [
                "state suspended→background", "scene s1 background→unattached",
                "call sceneDidDisconnect: [background] s1:unattached", "post UISceneDidDisconnectNotification s1",
                "state background→suspended",
            ])
        #expect(sim.sessions() == ["s1"])
        #expect(!sim.selectors("a").contains(Selector.didDiscardSceneSessions))
    }

    @Test("11.9 a scene background for sceneDisconnectDelay in a living process is disconnected")
    func disconnectDelay() throws {
        var sim = Sim.scenes(sceneDisconnectDelay: 60)
        try sim.on("a", .foregroundLaunch, .homeButton, .wait(59))
        #expect(sim.sceneStates() == [.background])
        try sim.on("a", .wait(1))
        #expect(sim.sceneStates() == [.unattached])
        #expect(sim.app("a").state == .suspended)
        #expect(sim.device.nextDeadline == nil)
    }

    @Test("11.9 the delay counts from the scene's last entry into the background")
    func disconnectDelayRestarts() throws {
        var sim = Sim.scenes(sceneDisconnectDelay: 60)
        try sim.on("a", .foregroundLaunch, .homeButton, .wait(50), .activate(session: nil), .homeButton, .wait(50))
        #expect(sim.sceneStates() == [.background])
        try sim.on("a", .wait(10))
        #expect(sim.sceneStates() == [.unattached])
    }

    @Test("11.9 switching to another app disconnects no scene")
    func switchingKeepsScenesConnected() throws {
        var sim = Sim.scenes()
        sim.add("b", scenes: .standard)
        try sim.on("a", .foregroundLaunch)
        try sim.on("b", .foregroundLaunch)
        try sim.onDevice(.switchApp(to: "a"))
        #expect(sim.sceneStates("a") == [.foregroundActive])
        #expect(sim.sceneStates("b") == [.background])
        #expect(!sim.selectors("a").contains("sceneDidDisconnect:"))
    }

    @Test("11.9 (chosen) memory pressure disconnects no scene by itself")
    func memoryPressureKeepsScenes() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton, .memoryPressure(level: .critical))
        #expect(sim.app("a").state == .notRunning)
        #expect(sim.sessions() == ["s1"])
        #expect(!sim.selectors("a").contains("sceneDidDisconnect:"))
    }

    @Test("11.9 closing one of several scenes: Deactivate, Enter background, Disconnect, then didDiscardSceneSessions")
    func closeOneScene() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene())
        try sim.on("a", .closeScene(session: "s2"))
        #expect(
            sim.lastTrace().filter { $0.hasPrefix("call") } == [
                "call sceneWillResignActive: [active] s2:foregroundActive",
                "call sceneDidEnterBackground: [active] s2:background",
                "call sceneDidDisconnect: [active] s2:unattached",
                "call \(Selector.didDiscardSceneSessions) [active]",
            ])
        #expect(sim.sessions() == ["s1"])
        #expect(sim.entries.callbackArgs(of: "a").last == ["sessions": ["s2"]])
    }

    @Test("11.9 closing the only front scene of several leaves the device on the Home screen")
    func closingTheFrontSceneLeavesHome() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(placement: .fullScreen))
        try sim.on("a", .closeScene(session: "s2"))
        #expect(sim.device.foregroundApp == nil)
        #expect(sim.app("a").state == .suspended)
    }

    @Test("11.9 (chosen) closing a scene of a suspended app resumes it to the background first")
    func closeSceneOfSuspendedApp() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .homeButton)
        try sim.on("a", .closeScene(session: "s1"))
        #expect(sim.lastTrace().first == "state suspended→background")
        #expect(sim.lastTrace().last == "state background→suspended")
        #expect(sim.sessions() == ["s2"])
    }

    @Test(
        "11.9 (chosen) sessions closed while not running are discarded right after DidFinishLaunching, before Connect")
    func pendingDiscard() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .terminate)
        let outcome = try sim.on("a", .closeScene(session: "s2"))
        #expect(outcome.changed)
        #expect(outcome.entries.isEmpty)
        #expect(sim.app("a").sessions.map(\.pendingDiscard) == [false, true])
        try sim.on("a", .foregroundLaunch)
        #expect(
            Array(sim.lastTrace()[4...5]) == [
                "call \(Selector.didDiscardSceneSessions) [background]",
                "call scene:willConnectToSession:options: [background] s1:unattached",
            ])
        #expect(sim.sessions() == ["s1"])
    }

    @Test("11.9 closing the last session is forceQuit")
    func closingTheLastSession() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .closeScene(session: "s1"))
        #expect(sim.app("a").termination?.reason == .forceQuit)
        #expect(sim.app("a").termination?.notified == true)
        #expect(sim.sessions().isEmpty)
    }

    @Test("11.9 a discarded session is gone: the next launch makes a new one, with configurationForConnecting")
    func discardedSessionNeverComesBack() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .forceQuit, .foregroundLaunch)
        #expect(sim.sessions() == ["s2"])
        #expect(sim.lastTrace().contains("call \(Selector.configurationForConnecting) [background]"))
    }

    @Test(
        "11.10 (chosen) forceQuit of a running scene app: resign, disconnect without background, discard, then willTerminate"
    )
    func forceQuitRunning() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .forceQuit)
        #expect(
            sim.lastTrace() == [
                "call sceneWillResignActive: [active] s1:foregroundActive",
                "post UISceneWillDeactivateNotification s1", "post \(Note.willResignActive)",
                "scene s1 foregroundActive→foregroundInactive", "state active→inactive",
                "scene s1 foregroundInactive→unattached", "call sceneDidDisconnect: [inactive] s1:unattached",
                "post UISceneDidDisconnectNotification s1", "call \(Selector.didDiscardSceneSessions) [inactive]",
                "call applicationWillTerminate: [inactive]", "post \(Note.willTerminate)", "state inactive→notRunning",
                "end forceQuit notified:true 0xdeadfa11",
            ])
    }

    @Test("11.10 forceQuit of a running app without a session discards nothing: only applicationWillTerminate:")
    func forceQuitWithoutSessions() throws {
        var sim = Sim(ios: "13.0", suspendDelay: 5)
        sim.add("a", scenes: .standard)
        try sim.on("a", .backgroundLaunch)
        try sim.on("a", .forceQuit)
        #expect(sim.lastTrace().filter { $0.hasPrefix("call") } == ["call applicationWillTerminate: [background]"])
    }

    @Test("11.10 forceQuit of a suspended app: no callback; its sessions wait to be discarded at the next launch")
    func forceQuitSuspended() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .forceQuit)
        #expect(
            sim.lastTrace() == [
                "scene s1 background→unattached", "state suspended→notRunning",
                "end forceQuit notified:false 0xdeadfa11",
            ])
        #expect(sim.app("a").sessions.map(\.pendingDiscard) == [true])
        try sim.on("a", .backgroundLaunch)
        #expect(sim.selectors("a").last == Selector.didDiscardSceneSessions)
        #expect(sim.sessions().isEmpty)
    }

    @Test("11.10 forceQuit of a not-running app only marks its sessions; changed: false when there is none")
    func forceQuitNotRunning() throws {
        var sim = Sim.scenes()
        #expect(try !sim.on("a", .forceQuit).changed)
        try sim.on("a", .foregroundLaunch, .terminate)
        #expect(try sim.on("a", .forceQuit).changed)
        #expect(try !sim.on("a", .forceQuit).changed)
    }

    @Test("11.10 whenever the process ends, each connected scene becomes unattached right before notRunning")
    func processEndUnattaches() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene())
        try sim.on("a", .crash)
        #expect(
            sim.lastTrace() == [
                "scene s1 foregroundActive→unattached", "scene s2 foregroundActive→unattached",
                "state active→notRunning", "end crash notified:false",
            ])
    }

    @Test("11.10 (chosen) terminate keeps the sessions; the next launch reconnects without configurationForConnecting")
    func terminateKeepsSessions() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .terminate)
        #expect(sim.sessions() == ["s1"])
        try sim.on("a", .foregroundLaunch)
        #expect(sim.lastTrace() == Steps.cold + Steps.connect("s1", new: false) + Steps.comeForward("s1"))
    }
}

/// 11.9 (chosen): what one app's sessions may cost is bounded, and ids stay never reused with little kept.
@Suite struct SceneSessionBoundsTests {
    @Test("11.9 an app has at most 32 sessions at once; closing one makes room")
    func liveSessionsAreBounded() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch)
        for _ in 1..<SceneBook.maxSessions { try sim.on("a", .openScene(placement: .split)) }
        #expect(sim.sessions().count == SceneBook.maxSessions)
        let refused = sim.rejection("a", .openScene(placement: .split))
        #expect(refused?.code == .invalidTransition)
        #expect(refused?.detail.contains("32 scene sessions") == true)
        try sim.on("a", .closeScene(session: "s2"))
        try sim.on("a", .openScene(placement: .split))
        #expect(sim.sessions().last == "s33", "a new id, never s2 again")
    }

    @Test("11.9 server-made ids are taken by number; only names the client chose are kept once discarded")
    func retiredKeepsOnlyNames() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .openScene("s3", placement: .split), .openScene("notes", placement: .split))
        try sim.on("a", .openScene(placement: .split))
        #expect(sim.sessions() == ["s1", "s3", "notes", "s2"])
        try sim.on("a", .openScene(placement: .split))
        #expect(sim.sessions().last == "s4", "s3 was the client's, so the server skips it")
        try sim.on("a", .closeScene(session: "s2"), .closeScene(session: "notes"), .closeScene(session: "s3"))
        #expect(sim.app("a").scenes.retired == ["notes"])
        #expect(sim.rejection("a", .openScene("s2", placement: .split))?.code == .alreadyExists)
        #expect(sim.rejection("a", .openScene("s3", placement: .split))?.code == .alreadyExists)
        #expect(sim.rejection("a", .openScene("notes", placement: .split))?.code == .alreadyExists)
    }
}
