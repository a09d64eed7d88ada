import Testing

@testable import LifecycleCore

/// LIFECYCLE §11.1–§11.3: which apps use scenes, what they are configured with, and the aggregate state.
@Suite("§11.1–11.3 Scenes: the life cycle, configurations, the aggregate state")
struct SceneLifecycleTests {
    @Test(
        "11.1 an app with a scene manifest uses scenes on iOS 13, whatever its deployment target; without one it does not"
    )
    func whichLifeCycle() {
        var sim = Sim(ios: "13.0")
        sim.add("scene", scenes: .standard)
        sim.add("plain")
        sim.add("older target", ios: "12.4", scenes: .standard)
        #expect(sim.device.usesScenes(sim.app("scene")))
        #expect(!sim.device.usesScenes(sim.app("plain")))
        #expect(sim.device.usesScenes(sim.app("older target")))
    }

    @Test("11.1 an app below iOS 13 ignores its manifest: the app-delegate paths of §4")
    func manifestIgnoredBefore13() throws {
        var sim = Sim(ios: "12.0")
        sim.add("a", scenes: .standard)
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").sessions.isEmpty)
        #expect(sim.selectors("a").contains(Selector.didBecomeActive))
    }

    @Test("11.1 the configuration is what configurationForConnecting returns, else the manifest's first for the role")
    func configurationChoice() throws {
        let manifest = SceneManifest(configurations: [
            SceneConfiguration(name: "Main"), SceneConfiguration(name: "Other"),
        ])
        var sim = Sim(ios: "13.0")
        sim.add("returned", scenes: manifest, configurationForConnecting: "Other")
        sim.add("first", scenes: manifest)
        sim.add(
            "unimplemented", notImplemented: [Selector.configurationForConnecting], scenes: manifest,
            configurationForConnecting: "Other")
        for id in ["returned", "first", "unimplemented"] { try sim.on(id, .foregroundLaunch) }
        #expect(sim.app("returned").sessions.first?.configuration == "Other")
        #expect(sim.app("first").sessions.first?.configuration == "Main")
        #expect(sim.app("unimplemented").sessions.first?.configuration == "Main")
        #expect(!sim.selectors("unimplemented").contains(Selector.configurationForConnecting))
    }

    @Test("11.1 a configuration name the manifest does not list is made in code, with a delegate")
    func configurationMadeInCode() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", scenes: SceneManifest(), configurationForConnecting: "Built In Code")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").sessions.first?.configuration == "Built In Code")
        #expect(sim.selectors("a").contains("sceneDidBecomeActive:"))
    }

    @Test("11.1 (chosen) a manifest without configurations selects scenes, but no scene callback is ever recorded")
    func manifestWithoutConfigurations() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", notImplemented: [Selector.configurationForConnecting], scenes: SceneManifest())
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.app("a").sessions.first?.configuration == nil)
        #expect(sim.selectors("a") == Launch.ios6)
        #expect(sim.notifications("a").contains("UISceneDidActivateNotification"))
        #expect(sim.states("a") == [.background, .inactive, .active, .inactive, .background, .suspended])
    }

    @Test("11.1 a configuration whose delegateClass is null has no scene delegate")
    func configurationWithoutDelegate() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", scenes: SceneManifest(configurations: [SceneConfiguration(name: "Bare", delegateClass: nil)]))
        try sim.on("a", .foregroundLaunch)
        #expect(sim.selectors("a") == Launch.ios6 + [Selector.configurationForConnecting])
    }

    @Test("11.1 multiple scenes need supportsMultipleScenes and an iPad")
    func multipleScenesNeedBoth() throws {
        for (pad, manifest, allowed) in [
            (false, SceneManifest.multiple, false), (true, .standard, false),
            (true, .multiple, true),
        ] {
            var sim = Sim.scenes(pad: pad, manifest: manifest)
            try sim.on("a", .foregroundLaunch)
            let rejection = sim.rejection("a", .openScene())
            #expect((rejection == nil) == allowed, "pad \(pad), \(manifest.supportsMultipleScenes)")
            #expect(sim.sessions().count == (allowed ? 2 : 1))
        }
    }

    @Test(
        "11.1 UIKit never calls the four foreground methods or a URL callback of a scene app; their notifications follow the app"
    )
    func appDelegateForegroundMethodsAreNotCalled() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch, .homeButton, .open("a://x"), .homeButton)
        let replaced = [
            Selector.willEnterForeground, Selector.didBecomeActive, Selector.willResignActive,
            Selector.didEnterBackground, Selector.openURLOptions, Selector.openURLSourceApplication,
            Selector.handleOpenURL,
        ]
        #expect(sim.selectors("a").allSatisfy { !replaced.contains($0) })
        let notes = sim.notifications("a")
        for note in [Note.willEnterForeground, Note.didBecomeActive, Note.willResignActive, Note.didEnterBackground] {
            #expect(notes.filter { $0 == note }.count == 2, "\(note)")
        }
    }

    @Test("11.1 everything else stays on the app delegate: termination, memory warnings, fetch, background tasks")
    func processEventsStayOnTheAppDelegate() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", backgroundModes: ["fetch"], scenes: .standard)
        try sim.on("a", .foregroundLaunch, .memoryWarning, .homeButton, .backgroundFetch)
        try sim.on("a", .activate(session: nil), .terminate)
        #expect(sim.selectors("a").contains(Selector.didReceiveMemoryWarning))
        #expect(sim.selectors("a").contains(Selector.performFetch))
        #expect(sim.selectors("a").last == Selector.willTerminate)
    }

    @Test("11.1 (chosen) launch callbacks get {} and their return values do not gate the URL")
    func launchOptionsAreNil() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", returns: [Selector.didFinishLaunchingWithOptions: false], scenes: .standard)
        try sim.on("a", .urlLaunch("a://x", from: "com.example.b"))
        #expect(sim.entries.callbackArgs(of: "a").prefix(2).allSatisfy { $0.isEmpty })
        let connect = sim.entries.of("a").first { $0.isCallback && $0.session == "s1" }
        let contexts: JSONValue = [["url": "a://x", "sourceApplication": "com.example.b"]]
        if case .callback(_, _, let args, _)? = connect?.body { #expect(args["urlContexts"] == contexts) }
        #expect(connect != nil)
    }

    @Test("11.1 (chosen) exitsOnSuspend and a device without multitasking are ignored for scene apps")
    func exitsOnSuspendIgnored() throws {
        var sim = Sim(ios: "13.0", multitasking: false)
        sim.add("a", exitsOnSuspend: true, scenes: .standard)
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.app("a").state == .suspended)
        #expect(sim.app("a").termination == nil)
    }

    @Test("11.1 iOS 27 gate: built with the iOS 27 SDK, without scenes, on iOS 27, any launch fails with no callback")
    func ios27Gate() throws {
        var sim = Sim(ios: "27.0")
        sim.add("plain", backgroundModes: ["fetch"])
        sim.add("oldSDK", sdk: "26.0")
        sim.add("scenes", scenes: .standard)
        try sim.on("plain", .foregroundLaunch)
        #expect(sim.trace("plain") == ["end sceneLifecycleRequired notified:false"])
        #expect(sim.app("plain").state == .notRunning)
        #expect(sim.app("plain").termination?.reason == .sceneLifecycleRequired)
        try sim.on("plain", .backgroundLaunch)
        try sim.on("plain", .backgroundFetch)
        #expect(sim.trace("plain").count == 3)
        #expect(sim.selectors("plain").isEmpty)
        try sim.on("oldSDK", .foregroundLaunch)
        #expect(sim.app("oldSDK").state == .active)
        try sim.on("scenes", .foregroundLaunch)
        #expect(sim.app("scenes").state == .active)
    }

    @Test(
        "11.1 iOS 27 gate: adoption is read from the Info.plist alone; a manifest with no configurations is not adopted"
    )
    func ios27GateNeedsAConfiguration() throws {
        var sim = Sim(ios: "27.0")
        sim.add("empty", scenes: SceneManifest())
        sim.add("inCode", scenes: SceneManifest(), configurationForConnecting: "Built In Code")
        sim.add("configured", scenes: .standard)
        for id in ["empty", "inCode"] {
            #expect(!sim.device.usesScenes(sim.app(id)), "\(id)")
            try sim.on(id, .foregroundLaunch)
            #expect(sim.trace(id) == ["end sceneLifecycleRequired notified:false"], "\(id)")
            #expect(sim.app(id).state == .notRunning)
            #expect(sim.app(id).sessions.isEmpty)
        }
        try sim.on("configured", .foregroundLaunch)
        #expect(sim.app("configured").state == .active)
        let refused = sim.rejection("empty", .openScene())
        #expect(refused?.code == .invalidTransition)
        #expect(refused?.detail.contains("listing at least one configuration") == true)
    }

    @Test("11.1 iOS 27 gate: the SDK decides; an older SDK on iOS 27, or the iOS 27 SDK on iOS 26, launches")
    func ios27GateTheSDKDecides() throws {
        var sim = Sim(ios: "27.0")
        sim.add("emptyOldSDK", scenes: SceneManifest(), sdk: "26.0")
        try sim.on("emptyOldSDK", .foregroundLaunch)
        // The empty manifest still selects scenes there, with no scene delegate (the black-screen case above).
        #expect(sim.device.usesScenes(sim.app("emptyOldSDK")))
        #expect(sim.app("emptyOldSDK").state == .active)
        var older = Sim(ios: "26.0")
        older.add("plain", sdk: "27.0")
        older.add("empty", scenes: SceneManifest(), sdk: "27.0")
        try older.on("plain", .foregroundLaunch)
        #expect(older.app("plain").state == .active)
        try older.on("empty", .foregroundLaunch)
        #expect(older.app("empty").state == .active)
    }

    @Test("11.1 iOS 27 gate: a failed launch leaves the app in front where it is")
    func ios27GateLeavesTheFrontAppAlone() throws {
        var sim = Sim(ios: "27.0")
        sim.add("front", scenes: .standard)
        sim.add("plain")
        try sim.on("front", .foregroundLaunch)
        try sim.on("plain", .activate(session: nil))
        #expect(sim.app("front").state == .active)
        #expect(sim.device.foregroundApp == "front")
    }

    @Test("11.2 (chosen) scenes side by side are all foregroundActive; a suspended app's scenes stay background")
    func sceneStates() throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene())
        #expect(sim.sceneStates() == [.foregroundActive, .foregroundActive])
        try sim.on("a", .homeButton)
        #expect(sim.app("a").state == .suspended)
        #expect(sim.sceneStates() == [.background, .background])
    }

    @Test(
        "11.3 a scene app starts in background even when it launches to the foreground; a state entry follows its scene's"
    )
    func aggregateState() throws {
        var sim = Sim.scenes()
        try sim.on("a", .foregroundLaunch)
        let trace = sim.trace("a")
        #expect(trace.first == "state notRunning→background")
        for (index, line) in trace.enumerated() where line.hasPrefix("state ") && index > 0 {
            #expect(trace[index - 1].hasPrefix("scene "), "\(line)")
        }
    }

    @Test("11.3 the app's state is always its most active scene's", arguments: [0, 1, 2])
    func mostActiveScene(steps: Int) throws {
        var sim = Sim.scenes(pad: true, manifest: .multiple)
        try sim.on("a", .foregroundLaunch, .openScene())
        if steps >= 1 { try sim.onDevice(.interruptionBegan(kind: .call)) }
        if steps >= 2 { try sim.onDevice(.interruptionEnded(accepted: true)) }
        let expected: [AppState] = [.active, .inactive, .suspended]
        #expect(sim.app("a").state == expected[steps])
    }
}
