import Testing

@testable import LifecycleCore

/// LIFECYCLE §14, background transfers: what the system tells an app of its background URL session's transfers,
/// when, and what a force-quit does to them.
@Suite struct BackgroundTransferTests {
    static let start: [String: [CallbackAction]] = [
        Selector.didEnterBackground: [.startBackgroundTransfer(session: "bg", task: .download, name: "photo")]
    ]

    static func sim(ios: String = "17.0", durations: [String: Double] = [:]) -> Sim {
        var sim = Sim(ios: ios)
        sim.add("a", durations: durations, actions: start)
        return sim
    }

    static let wakeAndTell = [
        "transfer completed bg download photo",
        "state suspended→background",
        "call application:handleEventsForBackgroundURLSession:completionHandler: [background]",
        "call URLSession:downloadTask:didFinishDownloadingToURL: [background]",
        "call URLSession:task:didCompleteWithError: [background]",
        "call URLSessionDidFinishEventsForBackgroundURLSession: [background]",
    ]

    @Test("§14 the action starts a transfer in the system's hands; the app's snapshot lists it")
    func actionStartsATransfer() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.trace("a").contains("transfer started bg download photo"))
        #expect(sim.app("a").backgroundTransfers == [.init(session: "bg", task: .download, name: "photo")])
    }

    @Test(
        "§14 a transfer that ends while the app is suspended wakes it: handleEvents, the task's messages, didFinishEvents"
    )
    func suspendedAppIsWoken() throws {
        var sim = Self.sim(durations: [Selector.handleEventsForBackgroundURLSession: 2])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.state("a") == .suspended)
        try sim.on("a", .finishTransfer(name: "photo", outcome: .success))
        #expect(Array(sim.last.entries.trace(of: "a").prefix(6)) == Self.wakeAndTell)
        #expect(
            sim.last.entries.first { $0.isCallback }?.body
                == .callback(
                    selector: Selector.handleEventsForBackgroundURLSession, state: .background,
                    args: ["identifier": "bg"], duration: 2))
        #expect(sim.app("a").backgroundTransfers.isEmpty)
        // The window stays open until the completion handler runs, then the app suspends again.
        #expect(sim.state("a") == .background)
        try sim.on("a", .wait(2))
        #expect(sim.state("a") == .suspended)
    }

    @Test("§14 an app the system ended is relaunched into the background, the session named in its launch options")
    func killedAppIsRelaunched() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton, .memoryPressure(level: .critical))
        #expect(sim.state("a") == .notRunning)
        try sim.on("a", .finishTransfer(name: "photo", outcome: .failure))
        let trace = sim.last.entries.trace(of: "a")
        #expect(trace.first == "transfer failed bg download photo")
        #expect(trace.contains("state notRunning→background"))
        let handle = trace.firstIndex(
            of: "call application:handleEventsForBackgroundURLSession:completionHandler: [background]")
        let launch = trace.firstIndex(of: "call application:didFinishLaunchingWithOptions: [background]")
        #expect(launch! < handle!)
        // A failed download gets no file: didCompleteWithError: with its error, then didFinishEvents.
        #expect(
            Array(trace[(handle! + 1)...]) == [
                "call URLSession:task:didCompleteWithError: [background]",
                "call URLSessionDidFinishEventsForBackgroundURLSession: [background]",
                "state background→suspended",
            ])
        let args = sim.last.entries.callbackArgs(of: "a")
        #expect(args.contains { $0["error"] == .string(Device.transferError) })
        #expect(args.first == ["urlSession": "bg"])
    }

    @Test("§14 a running app hears of its transfer directly: no wake, no completion handler")
    func runningAppHearsDirectly() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton, .foregroundLaunch)
        #expect(sim.state("a") == .active)
        try sim.on("a", .finishTransfer(name: "photo", outcome: .success))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "transfer completed bg download photo",
                "call URLSession:downloadTask:didFinishDownloadingToURL: [active]",
                "call URLSession:task:didCompleteWithError: [active]",
            ])
    }

    @Test("§14 the app is woken once its session has nothing left under way")
    func wokenWhenTheSessionIsDone() throws {
        var sim = Sim()
        sim.add(
            "a",
            actions: [
                Selector.didEnterBackground: [
                    .startBackgroundTransfer(session: "bg", task: .upload, name: "one"),
                    .startBackgroundTransfer(session: "bg", task: .upload, name: "two"),
                ]
            ])
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .finishTransfer(name: "one", outcome: .success))
        #expect(sim.last.entries.trace(of: "a") == ["transfer completed bg upload one"])
        #expect(sim.state("a") == .suspended)
        try sim.on("a", .finishTransfer(name: "two", outcome: .success))
        #expect(
            sim.selectors("a").suffix(4) == [
                Selector.handleEventsForBackgroundURLSession, Selector.didCompleteWithError,
                Selector.didCompleteWithError,
                Selector.didFinishEventsForBackgroundURLSession,
            ])
    }

    @Test("§14 an app that does not call the completion handler within 30 s is killed with 0x2182bad3")
    func completionHandlerNotCalled() throws {
        var sim = Self.sim(durations: [Selector.handleEventsForBackgroundURLSession: 86_400])
        try sim.on("a", .foregroundLaunch, .homeButton, .finishTransfer(name: "photo", outcome: .success))
        #expect(sim.state("a") == .background)
        try sim.on("a", .wait(29.5))
        #expect(sim.state("a") == .background)
        try sim.on("a", .wait(1))
        let end = try #require(sim.app("a").termination)
        #expect(end.reason == .backgroundURLSessionExpired)
        #expect(end.code == "0x2182bad3")
        #expect(end.reason.kind.category == .taskTimeout)
        let opened = sim.entries.last { $0.line.hasPrefix("call application:handleEventsForBackgroundURLSession") }
        #expect(end.time == opened.map { $0.time + 30 })
    }

    @Test("§14 a fetch window past its limit is still the watchdog's 0x8badf00d")
    func fetchWindowStaysAWatchdogKill() throws {
        var sim = Sim()
        sim.add("a", backgroundModes: ["fetch"], durations: [Selector.performFetch: 40])
        try sim.on("a", .backgroundFetch, .wait(31))
        #expect(sim.app("a").termination?.reason == .watchdog)
    }

    @Test("§14 the user's force-quit cancels every transfer, and nothing wakes the app for them")
    func forceQuitCancels() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton, .forceQuit)
        #expect(sim.last.entries.trace(of: "a").contains("transfer cancelled bg download photo"))
        #expect(sim.app("a").backgroundTransfers.isEmpty)
        let rejection = sim.rejection("a", .finishTransfer(name: "photo", outcome: .success))
        let refusal = try #require(rejection)
        #expect(refusal.code == .invalidTransition)
        #expect(sim.state("a") == .notRunning)
    }

    @Test("§14 a system end keeps the transfers; only the user's force-quit cancels them")
    func systemEndKeepsThem() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton, .terminate)
        #expect(sim.app("a").backgroundTransfers.count == 1)
    }

    @Test("§14 a transfer's wake goes through the wake policy: refused after a force-quit, an entry says so")
    func wakePolicyApplies() throws {
        var sim = Sim()
        let start: [String: [CallbackAction]] = [
            Selector.didFinishLaunchingWithOptions: [
                .startBackgroundTransfer(session: "bg", task: .upload, name: "log")
            ]
        ]
        sim.add("a", actions: start)
        try sim.on("a", .foregroundLaunch, .forceQuit)
        // Launched in the background (not by the user), it starts a transfer; the force-quit's stop still holds.
        try sim.on("a", .backgroundLaunch)
        #expect(sim.state("a") == .suspended)
        #expect(sim.app("a").wakesStoppedByForceQuit)
        try sim.on("a", .finishTransfer(name: "log", outcome: .success))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "transfer completed bg upload log", "refused backgroundURLSession forceQuit",
            ])
        #expect(sim.state("a") == .suspended)
    }

    @Test("§14 Background App Refresh and Low Power Mode do not stop a transfer's wake (chosen)")
    func refreshSettingsDoNotStopTransfers() throws {
        var sim = Sim(ios: "17.0", settings: ["backgroundAppRefresh": "off", "lowPowerMode": true])
        sim.add("a", actions: Self.start)
        try sim.on("a", .foregroundLaunch, .homeButton, .finishTransfer(name: "photo", outcome: .success))
        #expect(sim.selectors("a").contains(Selector.handleEventsForBackgroundURLSession))
    }

    @Test("§14 background transfers exist from iOS 7.0: an app whose actions start one is refused on iOS 6")
    func refusedBeforeIOS7() {
        var device = Sim(ios: "6.1").device
        var configuration = AppConfiguration(bundleId: "com.example.a")
        configuration.delegate.actions = Self.start
        #expect(throws: Rejection.self) { try device.addApp(id: "a", configuration: configuration) }
        do {
            try device.addApp(id: "a", configuration: configuration)
        } catch {
            #expect(error.field == "delegate.actions")
            #expect(error.detail.contains("iOS 7.0") && error.detail.contains("6.1"))
        }
    }

    @Test("§14 finishing a transfer the app does not have is refused, naming the ones under way")
    func unknownTransfer() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton)
        let rejection = sim.rejection("a", .finishTransfer(name: "phot", outcome: .success))
        let refusal = try #require(rejection)
        #expect(refusal.allowed == ["photo"])
        #expect(refusal.detail.contains("did you mean photo?"))
    }
}
