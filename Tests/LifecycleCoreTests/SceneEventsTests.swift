import Testing

@testable import LifecycleCore

/// The scene events and their errors, in the order API.md "Scenes: events" gives them.
@Suite("Scene events: openScene, closeScene, disconnectScene and the session field")
struct SceneEventsTests {
    @Test("openScene split joins the front scenes: Connect, Enter foreground, Activate; no app-level notification")
    func openSceneSplit() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .openScene(url: "a://n"))
        #expect(sim.lastTrace().filter { $0.hasPrefix("post UIApplication") || $0.hasPrefix("state") }.isEmpty)
        #expect(sim.entries.callbackArgs(of: "a")[6]["urlContexts"] == [["url": "a://n"]])
    }

    @Test("openScene on a not-running app launches it with the new session as the target; a client may name it")
    func openSceneLaunches() throws {
        var sim = Sim.scenes()
        try sim.on("a", .openScene("notes"))
        #expect(sim.sessions() == ["notes"])
        #expect(sim.app("a").state == .active)
    }

    @Test("server-made session ids are s1, s2, ... and never reused")
    func sessionIds() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .closeScene(session: "s2"), .openScene())
        #expect(sim.sessions() == ["s1", "s3"])
    }

    @Test("(chosen) a discarded session's id is never used again, by the server or a client")
    func discardedIdsStayTaken() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene("s2"), .closeScene(session: "s2"))
        #expect(sim.rejection("a", .openScene("s2"))?.code == .alreadyExists)
        try sim.on("a", .openScene())
        #expect(sim.sessions() == ["s1", "s3"])
    }

    @Test("errors in order: no scenes (409), a bad session (400), a session that exists (already-exists), then 409s")
    func errorOrder() throws {
        var sim = Sim.scenes()
        sim.add("plain")
        try sim.on("a", .foregroundLaunch)
        let noScenes = sim.rejection("plain", .openScene("s1"))
        #expect(noScenes?.code == .invalidTransition)
        #expect(noScenes?.lifecycle == "appDelegate")
        #expect(sim.rejection("plain", .closeScene(session: "s1"))?.code == .invalidTransition)
        #expect(sim.rejection("plain", .disconnectScene(session: "s1"))?.code == .invalidTransition)
        #expect(sim.rejection("plain", .activate("s1"))?.field == "session")
        #expect(sim.rejection("plain", .open("a://x", session: "s1"))?.field == "session")
        #expect(sim.rejection("a", .activate("ghost"))?.field == "session")
        #expect(sim.rejection("a", .closeScene(session: "ghost"))?.field == "session")
        #expect(sim.rejection("a", .disconnectScene(session: "ghost"))?.field == "session")
        #expect(sim.rejection("a", .openScene("s1"))?.code == .alreadyExists)
        #expect(sim.rejection("a", .openScene("s9"))?.code == .invalidTransition)
        let notBackground = sim.rejection("a", .disconnectScene(session: "s1"))
        #expect(notBackground?.sceneState == .foregroundActive)
        #expect(notBackground?.state == .active)
    }

    @Test("disconnectScene on a not-running app is refused; while locked it is allowed, closeScene is not")
    func lockedAndNotRunning() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene(), .terminate)
        #expect(sim.rejection("a", .disconnectScene(session: "s1"))?.code == .invalidTransition)
        try sim.on("a", .foregroundLaunch, .lock)
        #expect(sim.rejection("a", .closeScene(session: "s2"))?.allowed == ["unlock"])
        #expect(sim.rejection("a", .openScene())?.allowed == ["unlock"])
        // The cold launch brought back s2, the most recently activated; the lock sent it to the background.
        try sim.on("a", .disconnectScene(session: "s2"))
        #expect(sim.sceneStates() == [.unattached, .unattached])
    }

    @Test("a rejected batch restores every scene and session it touched")
    func rollbackCoversScenes() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch)
        let before = sim.device
        let rejection = sim.rejection("a", .openScene(), .homeButton, .closeScene(session: "s1"), .unlock)
        #expect(rejection?.index == 3)
        #expect(rejection?.state == .active)
        #expect(sim.device == before)
        try sim.on("a", .openScene())
        #expect(sim.sessions() == ["s1", "s2"])
    }
}

@Suite("§9 Memory at launch")
struct MemoryAtLaunchTests {
    @Test(
        "§9 the app a launch sends to the background, suspended at once, is suspended before memory is looked for: purged silently"
    )
    func frontAppIsPurgedSilently() throws {
        var sim = Sim(ios: "7.0", memoryMB: 200)
        sim.add("front", memoryMB: 100)
        sim.add("next", memoryMB: 150)
        try sim.on("front", .foregroundLaunch)
        try sim.on("next", .foregroundLaunch)
        #expect(
            sim.app("front").termination
                == Termination(
                    reason: .memoryPressure, time: 0, notified: false, foreground: false))
        #expect(!sim.selectors("front").contains(Selector.willTerminate))
        #expect(sim.states("front").suffix(3) == [.background, .suspended, .notRunning])
    }

    @Test("§9 an app kept running in the background by a task is terminated with applicationWillTerminate:")
    func runningAppIsTerminated() throws {
        var sim = Sim(ios: "7.0", memoryMB: 200)
        sim.add("front", memoryMB: 100)
        sim.add("next", memoryMB: 150)
        try sim.on("front", .foregroundLaunch, .task())
        try sim.on("next", .foregroundLaunch)
        #expect(sim.app("front").termination?.notified == true)
        #expect(sim.selectors("front").last == Selector.willTerminate)
    }

    @Test("§9 with a suspendDelay the app is still running when memory is looked for: terminated, notified")
    func suspendDelayKeepsItRunning() throws {
        var sim = Sim(ios: "7.0", memoryMB: 200, suspendDelay: 5)
        sim.add("front", memoryMB: 100)
        sim.add("next", memoryMB: 150)
        try sim.on("front", .foregroundLaunch)
        try sim.on("next", .foregroundLaunch)
        #expect(sim.app("front").termination?.notified == true)
    }
}
