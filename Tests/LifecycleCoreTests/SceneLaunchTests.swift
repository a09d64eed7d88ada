import Testing

@testable import LifecycleCore

/// LIFECYCLE §11.4–§11.6: the scene steps, launching to the foreground and into the background.
@Suite("§11.4–11.6 Scenes: the steps and the launches")
struct SceneLaunchTests {
    @Test("11.5 a cold launch: background, launch callbacks, Connect a new session, Enter foreground, Activate")
    func coldLaunch() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        #expect(sim.trace("a") == Steps.cold + Steps.connect("s1") + Steps.comeForward("s1"))
        #expect(sim.device.foregroundApp == "a")
        #expect(sim.app("a").sessions.first?.configured == true)
    }

    @Test(
        "11.4 Connect: configurationForConnecting gets the session, its role and urlContexts; willConnect its configuration"
    )
    func connectArguments() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        let args = sim.entries.callbackArgs(of: "a")
        #expect(args[2] == ["session": "s1", "role": "UIWindowSceneSessionRoleApplication", "urlContexts": []])
        #expect(args[3] == ["session": "s1", "configuration": "Default Configuration", "urlContexts": []])
    }

    @Test("11.4 a scene callback's sceneState is the scene's during the call, its state the app's")
    func callbackStates() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton)
        let scene = sim.entries.of("a").filter { $0.isCallback && $0.session != nil }
        #expect(
            scene.map(\.sceneState) == [.unattached, .background, .foregroundActive, .foregroundActive, .background])
        #expect(
            sim.entries.callbackStates(of: "a").suffix(5) == [.background, .background, .active, .active, .background])
    }

    @Test("11.4 (chosen) the order: the delegate call, its UIScene notification, then the UIApplication notification")
    func notificationOrder() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        let trace = sim.lastTrace()
        let resign = try #require(trace.firstIndex { $0.hasPrefix("call sceneWillResignActive:") })
        #expect(trace[resign + 1] == "post UISceneWillDeactivateNotification s1")
        #expect(trace[resign + 2] == "post \(Note.willResignActive)")
        let background = try #require(trace.firstIndex { $0.hasPrefix("call sceneDidEnterBackground:") })
        #expect(trace[background + 1] == "post UISceneDidEnterBackgroundNotification s1")
        #expect(trace[background + 2] == "post \(Note.didEnterBackground)")
    }

    @Test("11.4 a UIScene notification is posted even when the scene delegate lacks the method")
    func notificationWithoutMethod() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", notImplemented: ["sceneWillResignActive:"], scenes: .standard)
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(!sim.selectors("a").contains("sceneWillResignActive:"))
        #expect(sim.notifications("a").contains("UISceneWillDeactivateNotification"))
    }

    @Test("11.4 (chosen) sceneDidEnterBackground: has the 5 s watchdog of applicationDidEnterBackground:")
    func enterBackgroundWatchdog() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", durations: ["sceneDidEnterBackground:": 6], scenes: .standard)
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.app("a").termination?.reason == .watchdog)
        #expect(sim.app("a").termination?.time == 5)
        #expect(
            sim.trace("a").suffix(4) == [
                "call sceneDidEnterBackground: [background] s1:background",
                "scene s1 background→unattached", "state background→notRunning",
                "end watchdog notified:false 0x8badf00d",
            ])
    }

    @Test("11.4 (chosen) several scenes move step by step: all Deactivate, then all Enter background")
    func stepsRunForEverySceneInTurn() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene())
        try sim.onDevice(.homeButton)
        #expect(
            sim.lastTrace().filter { $0.hasPrefix("call") } == [
                "call sceneWillResignActive: [active] s1:foregroundActive",
                "call sceneWillResignActive: [active] s2:foregroundActive",
                "call sceneDidEnterBackground: [inactive] s1:background",
                "call sceneDidEnterBackground: [background] s2:background",
            ])
        #expect(sim.lastTrace().filter { $0 == "post \(Note.willResignActive)" }.count == 1)
        #expect(sim.lastTrace().filter { $0 == "post \(Note.didEnterBackground)" }.count == 1)
    }

    @Test("11.5 a URL launch puts the URL in the connection options; no openURLContexts, no app-delegate URL callback")
    func urlLaunch() throws {
        var sim = Sim.scenes()
        try sim.on("a", .urlLaunch("a://x"))
        let contexts: JSONValue = [["url": "a://x"]]
        let args = sim.entries.callbackArgs(of: "a")
        #expect(args[2]["urlContexts"] == contexts)
        #expect(args[3]["urlContexts"] == contexts)
        #expect(!sim.selectors("a").contains("scene:openURLContexts:"))
        #expect(!sim.selectors("a").contains(Selector.openURLOptions))
    }

    @Test("11.5 (chosen) the launch watchdog covers willFinish to the launching scene's sceneDidBecomeActive:")
    func launchWatchdogCoversTheScene() throws {
        var sim = Sim(ios: "13.0")
        sim.add(
            "a", durations: [Selector.didFinishLaunchingWithOptions: 15, "sceneWillEnterForeground:": 6],
            scenes: .standard)
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").termination?.reason == .watchdog)
        #expect(sim.app("a").termination?.time == 20)
        #expect(sim.app("a").sessions.map(\.state) == [.unattached])
    }

    @Test("11.5 any other foreground app leaves first, as on Home")
    func otherAppLeavesFirst() throws {
        var sim = Sim(ios: "13.0")
        sim.add("b")
        sim.add("a", scenes: .standard)
        try sim.on("b", .foregroundLaunch)
        try sim.on("a", .foregroundLaunch)
        #expect(sim.last.entries.first?.app == "b")
        #expect(sim.app("b").state == .suspended)
        #expect(sim.device.foregroundApp == "a")
    }

    @Test(
        "11.6 (chosen) a background launch connects no scene and posts no will-enter-foreground; activation connects later"
    )
    func backgroundLaunch() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", backgroundModes: ["remote-notification"], scenes: .standard)
        try sim.on("a", .contentAvailablePush)
        #expect(
            sim.trace("a") == Steps.cold + [
                "call \(Selector.didReceiveRemoteNotificationFetch) [background]", "state background→suspended",
            ])
        #expect(sim.app("a").sessions.isEmpty)
        try sim.on("a", .activate(session: nil))
        #expect(sim.lastTrace() == ["state suspended→background"] + Steps.connect("s1") + Steps.comeForward("s1"))
    }

    @Test("11.6 a background launch of a scene app gives its launch callbacks {} too")
    func backgroundLaunchOptions() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", backgroundModes: ["remote-notification"], scenes: .standard)
        try sim.on("a", .contentAvailablePush)
        #expect(sim.entries.callbackArgs(of: "a").prefix(2).allSatisfy { $0.isEmpty })
    }
}
