import Testing

@testable import LifecycleCore

@Suite("§3 Callbacks and notifications")
struct SelectorTests {
    @Test(
        "§3 right after each delegate method its notification is posted",
        arguments: [
            (Selector.didFinishLaunching, Note.didFinishLaunching),
            (Selector.didFinishLaunchingWithOptions, Note.didFinishLaunching),
            (Selector.didBecomeActive, Note.didBecomeActive),
            (Selector.willResignActive, Note.willResignActive),
            (Selector.didEnterBackground, Note.didEnterBackground),
            (Selector.willEnterForeground, Note.willEnterForeground),
            (Selector.willTerminate, Note.willTerminate),
            (Selector.didReceiveMemoryWarning, Note.memoryWarning),
            (Selector.significantTimeChange, Note.significantTime),
            (Selector.protectedDataWillBecomeUnavailable, Note.protectedDataWillBecomeUnavailable),
            (Selector.protectedDataDidBecomeAvailable, Note.protectedDataDidBecomeAvailable),
            (Selector.willChangeStatusBarFrame, "UIApplicationWillChangeStatusBarFrameNotification"),
            (Selector.didChangeStatusBarFrame, "UIApplicationDidChangeStatusBarFrameNotification"),
        ])
    func notificationTable(selector: String, notification: String) {
        #expect(Selector.notification(after: selector) == notification)
    }

    @Test("§3 methods without a notification in the table post none")
    func noNotification() {
        #expect(Selector.notification(after: Selector.willFinishLaunchingWithOptions) == nil)
        #expect(Selector.notification(after: Selector.openURLOptions) == nil)
        #expect(Selector.notification(after: Selector.performFetch) == nil)
        #expect(Selector.notification(after: Selector.backgroundTaskExpirationHandler) == nil)
    }

    @Test("§3 each callback is followed by its notification on the whole Home-and-back path")
    func everyCallbackThenNotification() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton, .activate(session: nil), .terminate)
        let lines = sim.trace("a")
        for (index, line) in lines.enumerated() where line.hasPrefix("call ") {
            let selector = String(line.dropFirst(5).prefix { $0 != " " })
            if let name = Selector.notification(after: selector) {
                #expect(lines[index + 1] == "post \(name)", "after \(selector)")
            }
        }
        #expect(sim.selectors("a").count == 8)
    }

    @Test(
        "§2 a delegate without application:didFinishLaunchingWithOptions: gets applicationDidFinishLaunching:, without options",
        arguments: ["3.0", "7.0"])
    func launchCallbackFallsBack(ios: String) throws {
        var sim = Sim(ios: ios)
        sim.add("a", notImplemented: [Selector.didFinishLaunchingWithOptions])
        try sim.on("a", .urlLaunch("a://x"))
        let launch = sim.entries.selectors(of: "a").filter { $0.contains("FinishLaunching") }
        #expect(launch.last == Selector.didFinishLaunching)
        #expect(!launch.contains(Selector.didFinishLaunchingWithOptions))
        let index = try #require(sim.entries.selectors(of: "a").firstIndex(of: Selector.didFinishLaunching))
        #expect(sim.entries.callbackArgs(of: "a")[index] == [:])
        #expect(sim.trace("a").contains("post UIApplicationDidFinishLaunchingNotification"))
    }

    @Test("§3 a method in delegate.notImplemented is not called, but states and notifications happen the same")
    func notImplemented() throws {
        var sim = Sim(ios: "7.0")
        sim.add(
            "a",
            notImplemented: [
                Selector.didFinishLaunchingWithOptions, Selector.didFinishLaunching, Selector.willResignActive,
                Selector.didBecomeActive,
            ])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(
            sim.trace("a") == [
                "state notRunning→inactive",
                "call application:willFinishLaunchingWithOptions: [inactive]",
                "post UIApplicationDidFinishLaunchingNotification",
                "state inactive→active",
                "post UIApplicationDidBecomeActiveNotification",
                "post UIApplicationWillResignActiveNotification",
                "state active→inactive",
                "state inactive→background",
                "call applicationDidEnterBackground: [background]",
                "post UIApplicationDidEnterBackgroundNotification",
                "state background→suspended",
            ])
    }

    @Test("§3 a callback's state is applicationState during the call")
    func callbackStates() throws {
        var sim = Sim(ios: "9.0")
        sim.add("a")
        try sim.on("a", .urlLaunch("a://launch"), .homeButton)
        try sim.on("a", .open("a://again"))
        #expect(
            sim.selectors("a") == Launch.ios6 + [
                Selector.openURLOptions, Selector.didBecomeActive, Selector.willResignActive,
                Selector.didEnterBackground,
                Selector.willEnterForeground, Selector.openURLOptions, Selector.didBecomeActive,
            ])
        #expect(
            sim.callbackStates("a") == [
                .inactive, .inactive, .inactive, .active, .active, .background, .background, .inactive, .active,
            ])
    }

    @Test("§3 launch callbacks of a background launch report background")
    func backgroundLaunchState() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .backgroundLaunch)
        #expect(sim.callbackStates("a") == [.background, .background])
    }
}
