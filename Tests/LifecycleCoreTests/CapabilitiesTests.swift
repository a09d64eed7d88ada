import Testing

@testable import LifecycleCore

@Suite("§2 Versions and capabilities")
struct CapabilitiesTests {
    struct MultitaskingCase: CustomTestStringConvertible, Sendable {
        var ios: String
        var deviceMultitasking: Bool
        var exitsOnSuspend: Bool
        var multitasking: Bool
        var testDescription: String {
            "iOS \(ios), device multitasking \(deviceMultitasking), exitsOnSuspend \(exitsOnSuspend)"
        }
    }

    @Test(
        "§2 multitasking = iOS >= 4.0 and device multitasking and not exitsOnSuspend",
        arguments: [
            MultitaskingCase(ios: "3.1.3", deviceMultitasking: true, exitsOnSuspend: false, multitasking: false),
            MultitaskingCase(ios: "4.0", deviceMultitasking: true, exitsOnSuspend: false, multitasking: true),
            MultitaskingCase(ios: "4.0", deviceMultitasking: false, exitsOnSuspend: false, multitasking: false),
            MultitaskingCase(ios: "7.0", deviceMultitasking: true, exitsOnSuspend: true, multitasking: false),
            MultitaskingCase(ios: "17.0", deviceMultitasking: true, exitsOnSuspend: false, multitasking: true),
        ])
    func multitasking(_ c: MultitaskingCase) throws {
        var sim = Sim(ios: c.ios, multitasking: c.deviceMultitasking)
        sim.add("a", exitsOnSuspend: c.exitsOnSuspend)
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.state("a") == (c.multitasking ? .suspended : .notRunning))
        #expect(sim.states("a").contains(.background) == c.multitasking)
        #expect(sim.app("a").termination?.reason == (c.multitasking ? nil : .exited))
    }

    @Test("§2 without multitasking an app never enters the background, even by a background launch")
    func noBackgroundLaunchWithoutMultitasking() {
        var sim = Sim(ios: "7.0", multitasking: false)
        sim.add("a")
        let before = sim.device
        #expect(sim.rejection("a", .backgroundLaunch)?.code == .invalidTransition)
        #expect(sim.device == before)
    }

    @Test("§2 launch callback before 3.0 is applicationDidFinishLaunching:")
    func launchBefore3() throws {
        var sim = Sim(ios: "2.2")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.selectors("a") == [Selector.didFinishLaunching, Selector.didBecomeActive])
    }

    @Test(
        "§2 launch callback from 3.0 is application:didFinishLaunchingWithOptions:", arguments: ["3.0", "4.2", "5.1.1"])
    func launchFrom3(ios: String) throws {
        var sim = Sim(ios: ios)
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.selectors("a") == [Selector.didFinishLaunchingWithOptions, Selector.didBecomeActive])
    }

    @Test("§2 from 6.0 application:willFinishLaunchingWithOptions: comes first", arguments: ["6.0", "9.3", "17.0"])
    func launchFrom6(ios: String) throws {
        var sim = Sim(ios: ios)
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.selectors("a") == Launch.ios6 + [Selector.didBecomeActive])
    }

    @Test("§2 the device's OS decides which methods exist, not the app's deployment target")
    func deviceVersionDecides() throws {
        var sim = Sim(ios: "17.0")
        sim.add("old target", ios: "2.2", sdk: "17.0")
        try sim.on("old target", .foregroundLaunch)
        #expect(sim.selectors("old target") == Launch.ios6 + [Selector.didBecomeActive])
    }

    @Test("§2 on a 4.3 device an app whose deployment target is 4.0 is only resigned by a lock (issue's example)")
    func deviceVersionGatesLock() throws {
        var sim = Sim(ios: "4.3")
        sim.add("a", ios: "4.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willResignActive])
        #expect(sim.state("a") == .inactive)
        #expect(sim.selectors("a").first == Selector.didFinishLaunchingWithOptions)
    }

    @Test("§2 an app whose deployment target is above its device's OS is refused, naming both versions")
    func deploymentTargetAboveOS() {
        var sim = Sim(ios: "4.3")
        var configuration = AppConfiguration(bundleId: "com.example.new", iosVersion: Version(7, 0))
        configuration.memoryMB = 100
        #expect(throws: Rejection.self) { try sim.device.addApp(id: "new", configuration: configuration) }
        do {
            try sim.device.addApp(id: "new", configuration: configuration)
        } catch {
            #expect(error.code == .invalidField)
            #expect(error.field == "iosVersion")
            #expect(error.detail.contains("7.0") && error.detail.contains("4.3"))
        }
        #expect(sim.device.app("new") == nil)
        sim.add("same", ios: "4.3")
        #expect(sim.app("same").iosVersion == Version(4, 3))
    }

    @Test(
        "§2 linked before 4.0, an app does not multitask on a 4.0+ OS: Home gives it applicationDidEnterBackground:, then ends it (seed 003)",
        arguments: ["4.0", "7.0", "17.0"])
    func oldSDKQuits(ios: String) throws {
        var sim = Sim(ios: ios)
        sim.add("old", ios: "3.1")
        sim.add("relinked", ios: "3.1", sdk: "4.0")
        try sim.on("old", .foregroundLaunch)
        try sim.on("old", .homeButton)
        #expect(
            sim.last.entries.selectors(of: "old") == [
                Selector.willResignActive, Selector.didEnterBackground, Selector.willTerminate,
            ])
        #expect(sim.states("old").suffix(3) == [.inactive, .background, .notRunning])
        #expect(sim.state("old") == .notRunning)
        try sim.on("relinked", .foregroundLaunch, .homeButton)
        #expect(sim.state("relinked") == .suspended)
        #expect(sim.rejection("old", .moveTo(state: .background))?.code == .invalidTransition)
        var still = Sim(ios: ios, multitasking: false)
        still.add("old", ios: "3.1")
        try still.on("old", .foregroundLaunch)
        try still.on("old", .homeButton)
        #expect(still.last.entries.selectors(of: "old") == [Selector.willResignActive, Selector.willTerminate])
    }

    @Test(
        "§2 URL callback by version: handleOpenURL before 4.2, sourceApplication until 9.0, options from 9.0",
        arguments: [
            ("2.2", Selector.handleOpenURL), ("4.1", Selector.handleOpenURL),
            ("4.2", Selector.openURLSourceApplication), ("8.4", Selector.openURLSourceApplication),
            ("9.0", Selector.openURLOptions), ("17.0", Selector.openURLOptions),
        ])
    func urlCallback(ios: String, selector: String) throws {
        var sim = Sim(ios: ios)
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .open("a://x"))
        #expect(sim.last.entries.selectors(of: "a") == [selector])
    }

    @Test(
        "§2 URL callback falls back to older ones the delegate implements",
        arguments: [
            ("9.0", [Selector.openURLOptions], Selector.openURLSourceApplication),
            ("9.0", [Selector.openURLOptions, Selector.openURLSourceApplication], Selector.handleOpenURL),
            ("4.2", [Selector.openURLSourceApplication], Selector.handleOpenURL),
        ])
    func urlFallback(ios: String, missing: [String], expected: String) throws {
        var sim = Sim(ios: ios)
        sim.add("a", notImplemented: Set(missing))
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .open("a://x"))
        #expect(sim.last.entries.selectors(of: "a") == [expected])
    }

    @Test("§2 a delegate with no URL method gets no URL callback; the app still comes in front")
    func noURLMethod() throws {
        var sim = Sim(ios: "9.0")
        sim.add(
            "a", notImplemented: [Selector.openURLOptions, Selector.openURLSourceApplication, Selector.handleOpenURL])
        try sim.on("a", .urlLaunch("a://x"))
        #expect(sim.selectors("a") == Launch.ios6 + [Selector.didBecomeActive])
        #expect(sim.state("a") == .active)
    }

    @Test("§2 lock before 5.0: the foreground app only resigns active and stays inactive")
    func lockBefore5() throws {
        var sim = Sim(ios: "4.3")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(sim.state("a") == .inactive)
        #expect(sim.device.foregroundApp == "a")
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willResignActive])
    }

    @Test("§2 lock from 5.0: the foreground app goes on to the background", arguments: ["5.0", "17.0"])
    func lockFrom5(ios: String) throws {
        var sim = Sim(ios: ios)
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(sim.state("a") == .suspended)
        #expect(sim.device.foregroundApp == nil)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willResignActive, Selector.didEnterBackground])
    }

    @Test("§2 banners from 5.0 change nothing")
    func bannerFrom5() throws {
        var sim = Sim(ios: "5.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.bannerNotification(title: "hi"))
        #expect(sim.last.entries.map(\.line) == ["device bannerNotification"])
        #expect(sim.device.interruption == nil)
        #expect(sim.state("a") == .active)
    }

    @Test("§2 before 5.0 every notification is an alert: an interruption")
    func bannerBefore5() throws {
        var sim = Sim(ios: "4.3")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.bannerNotification(title: "hi"))
        #expect(sim.device.interruption == .alert)
        #expect(sim.state("a") == .inactive)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willResignActive])
    }

    @Test("§2 Notification Center exists from 5.0")
    func notificationCenterGate() throws {
        var old = Sim(ios: "4.3")
        let before = old.device
        #expect(old.rejection(nil, .notificationCenterOpened)?.code == .invalidTransition)
        #expect(old.device == before)
        var new = Sim(ios: "5.0")
        try new.onDevice(.notificationCenterOpened)
        #expect(new.device.notificationCenterOpen)
    }

    @Test(
        "§2 background task budget: 600 s (4.0..<7.0), 180 s (7.0..<13.0), 30 s (>= 13.0)",
        arguments: [("4.0", 600.0), ("6.1", 600.0), ("7.0", 180.0), ("12.4", 180.0), ("13.0", 30.0), ("17.0", 30.0)])
    func budget(ios: String, seconds: Double) throws {
        var sim = Sim(ios: ios)
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task("t"), .homeButton)
        #expect(sim.device.backgroundTimeRemaining(of: sim.app("a")) == seconds)
        #expect(sim.device.nextDeadline == seconds)
        try sim.onDevice(.wait(seconds - 1))
        #expect(sim.state("a") == .background)
        try sim.onDevice(.wait(1))
        #expect(sim.state("a") == .suspended)
        #expect(sim.selectors("a").last == Selector.backgroundTaskExpirationHandler)
    }

    @Test("§2 remote notifications before 7.0 call application:didReceiveRemoteNotification:")
    func remoteBefore7() throws {
        var sim = Sim(ios: "6.1")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .remoteNotification(payload: ["aps": ["alert": "hi"]], contentAvailable: false))
        #expect(sim.last.entries.selectors(of: "a") == [Selector.didReceiveRemoteNotification])
        #expect(sim.last.entries.callbackArgs(of: "a") == [["userInfo": ["aps": ["alert": "hi"]]]])
    }

    @Test("§2 remote notifications from 7.0 call the fetchCompletionHandler: variant, falling back to the old one")
    func remoteFrom7() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b", notImplemented: [Selector.didReceiveRemoteNotificationFetch])
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .remoteNotification(payload: nil, contentAvailable: false))
        #expect(sim.last.entries.selectors(of: "a") == [Selector.didReceiveRemoteNotificationFetch])
        try sim.on("b", .foregroundLaunch)
        try sim.on("b", .remoteNotification(payload: nil, contentAvailable: false))
        #expect(sim.last.entries.selectors(of: "b") == [Selector.didReceiveRemoteNotification])
    }

    @Test("§2 background fetch exists from 7.0")
    func fetchGate() throws {
        var old = Sim(ios: "6.1")
        old.add("a", backgroundModes: ["fetch"])
        let before = old.device
        #expect(old.rejection("a", .backgroundFetch)?.code == .invalidTransition)
        #expect(old.device == before)
        var new = Sim(ios: "7.0")
        new.add("a", backgroundModes: ["fetch"])
        try new.on("a", .backgroundFetch)
        #expect(new.selectors("a") == Launch.ios6 + [Selector.performFetch])
    }
}
