import Testing

@testable import LifecycleCore

@Suite("§4 The paths")
struct DeviceForegroundTests {
    @Test("§4 launch to the foreground: inactive, willFinish, didFinish, active, didBecomeActive")
    func launchToForeground() throws {
        var sim = Sim(ios: "17.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        #expect(
            sim.trace("a") == ["state notRunning→inactive"] + Sim.launchCallbacksThenActive)
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("§4 a URL launch calls the URL callback after the launch callbacks, with its arguments")
    func urlLaunch() throws {
        var sim = Sim(ios: "4.2")
        sim.add("a", urlSchemes: ["mail"])
        try sim.on("a", .urlLaunch("mail://inbox", from: "com.apple.mobilesafari"))
        #expect(
            sim.selectors("a") == [
                Selector.didFinishLaunchingWithOptions, Selector.openURLSourceApplication, Selector.didBecomeActive,
            ])
        #expect(
            sim.entries.callbackArgs(of: "a")[1] == [
                "url": "mail://inbox", "sourceApplication": "com.apple.mobilesafari",
            ])
        #expect(sim.entries.callbackArgs(of: "a")[0]["url"] == "mail://inbox")
    }

    @Test(
        "§4 a launch callback returning false suppresses the URL callback",
        arguments: [Selector.willFinishLaunchingWithOptions, Selector.didFinishLaunchingWithOptions])
    func launchReturnsFalse(selector: String) throws {
        var sim = Sim(ios: "9.0")
        sim.add("a", returns: [selector: false])
        try sim.on("a", .urlLaunch("a://x"))
        #expect(sim.selectors("a") == Launch.ios6 + [Selector.didBecomeActive])
        #expect(sim.state("a") == .active)
    }

    @Test("§4 delegate.returns true, or false on an unimplemented method, keeps the URL callback")
    func launchReturnsTrue() throws {
        var sim = Sim(ios: "9.0")
        sim.add(
            "a", notImplemented: [Selector.willFinishLaunchingWithOptions],
            returns: [Selector.willFinishLaunchingWithOptions: false, Selector.didFinishLaunchingWithOptions: true])
        try sim.on("a", .urlLaunch("a://x"))
        #expect(
            sim.selectors("a") == [
                Selector.didFinishLaunchingWithOptions, Selector.openURLOptions, Selector.didBecomeActive,
            ])
    }

    @Test("§4 a URL with a scheme the app does not declare is refused and changes nothing")
    func undeclaredScheme() throws {
        var sim = Sim(ios: "9.0")
        sim.add("a", urlSchemes: ["mail"])
        let before = sim.device
        #expect(sim.rejection("a", .urlLaunch("http://x"))?.code == .invalidTransition)
        #expect(sim.rejection("a", .urlLaunch("no-scheme"))?.code == .invalidField)
        #expect(sim.device == before)
    }

    @Test("§4 launching an app makes any other foreground app leave first, as on Home")
    func otherAppLeavesFirst() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch)
        try sim.on("b", .foregroundLaunch)
        let lines = sim.last.entries.map { "\($0.app ?? "-") \($0.line)" }
        #expect(
            lines.prefix(6) == [
                "a call applicationWillResignActive: [active]",
                "a post UIApplicationWillResignActiveNotification",
                "a state active→inactive",
                "a state inactive→background",
                "a call applicationDidEnterBackground: [background]",
                "a post UIApplicationDidEnterBackgroundNotification",
            ])
        #expect(lines.dropFirst(6).first == "b state notRunning→inactive")
        #expect(sim.state("a") == .suspended)
    }

    @Test("§4 launch into the background: launch callbacks in background, no foreground callbacks, then suspended")
    func backgroundLaunch() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .backgroundLaunch)
        #expect(
            sim.trace("a") == [
                "state notRunning→background",
                "call application:willFinishLaunchingWithOptions: [background]",
                "call application:didFinishLaunchingWithOptions: [background]",
                "post UIApplicationDidFinishLaunchingNotification",
                "state background→suspended",
            ])
        #expect(sim.device.foregroundApp == nil)
    }

    @Test("§4 a background launch takes no url")
    func backgroundLaunchWithURL() {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        #expect(sim.rejection("a", .launch(background: true, url: "a://x", sourceApplication: nil))?.field == "url")
    }

    @Test("§4 Home with multitasking: resign, inactive, background, didEnterBackground, suspended")
    func homeMultitasking() throws {
        var sim = Sim(ios: "4.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(
            sim.last.entries.map(\.line) == [
                "device homeButton",
                "call applicationWillResignActive: [active]",
                "post UIApplicationWillResignActiveNotification",
                "state active→inactive",
                "state inactive→background",
                "call applicationDidEnterBackground: [background]",
                "post UIApplicationDidEnterBackgroundNotification",
                "state background→suspended",
            ])
        #expect(sim.device.foregroundApp == nil)
    }

    @Test("§4 Home before 4.0: applicationWillTerminate: only, then notRunning")
    func homeBefore4() throws {
        var sim = Sim(ios: "3.1")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationWillTerminate: [active]",
                "post UIApplicationWillTerminateNotification",
                "state active→notRunning",
                "end exited notified:true",
            ])
        #expect(sim.app("a").termination == Termination(reason: .exited, time: 0, notified: true, foreground: true))
    }

    @Test(
        "§4 Home from 4.0 without multitasking: resign, applicationWillTerminate:, notRunning",
        arguments: [(false, false), (true, true)])
    func homeWithoutMultitasking(exitsOnSuspend: Bool, deviceMultitasking: Bool) throws {
        var sim = Sim(ios: "6.0", multitasking: deviceMultitasking)
        sim.add("a", exitsOnSuspend: exitsOnSuspend)
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationWillResignActive: [active]",
                "post UIApplicationWillResignActiveNotification",
                "state active→inactive",
                "call applicationWillTerminate: [inactive]",
                "post UIApplicationWillTerminateNotification",
                "state inactive→notRunning",
                "end exited notified:true",
            ])
    }

    @Test("§4 back to the foreground from suspended: willEnterForeground, queue, inactive, active")
    func backFromSuspended() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton, .change(kind: .orientation, value: "landscapeLeft"))
        try sim.on("a", .activate(session: nil))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "state suspended→background",
                "call applicationWillEnterForeground: [background]",
                "post UIApplicationWillEnterForegroundNotification",
                "queued UIDeviceOrientationDidChangeNotification",
                "state background→inactive",
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("§4 back to the foreground from the background (a task running): no suspended step")
    func backFromBackground() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task(), .homeButton)
        #expect(sim.state("a") == .background)
        try sim.on("a", .activate(session: nil))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call applicationWillEnterForeground: [background]",
                "post UIApplicationWillEnterForegroundNotification",
                "state background→inactive",
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
        #expect(sim.device.backgroundTimeRemaining(of: sim.app("a")) == nil)
    }

    @Test("§4 openURL on a suspended app: the URL callback comes in inactive, before didBecomeActive")
    func openURLFromSuspended() throws {
        var sim = Sim(ios: "9.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("a", .open("a://x"))
        #expect(
            sim.last.entries.selectors(of: "a") == [
                Selector.willEnterForeground, Selector.openURLOptions, Selector.didBecomeActive,
            ])
        #expect(sim.last.entries.callbackStates(of: "a") == [.background, .inactive, .active])
    }

    @Test("§4 switchApp brings another app in front; the current one leaves as on Home")
    func switchApp() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch)
        try sim.onDevice(.switchApp(to: "a"))
        #expect(sim.state("a") == .active)
        #expect(sim.state("b") == .suspended)
        #expect(sim.last.entries.selectors(of: "b") == [Selector.willResignActive, Selector.didEnterBackground])
        #expect(sim.last.entries.selectors(of: "a") == [Selector.willEnterForeground, Selector.didBecomeActive])
        #expect(sim.rejection(nil, .switchApp(to: "ghost"))?.code == .notFound)
    }

    @Test("§4 launch or activate on an app already in front is legal and changes nothing")
    func launchWhenActive() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        let outcome = try sim.on("a", .foregroundLaunch, .activate(session: nil))
        #expect(outcome == Outcome(entries: [], changed: false))
        let background = try sim.on("a", .backgroundLaunch)
        #expect(background.changed == false)
    }

    @Test("§4 suspension rule: an idle background app suspends suspendDelay seconds later, with no callback")
    func suspendDelay() throws {
        var sim = Sim(ios: "7.0", suspendDelay: 3)
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.state("a") == .background)
        #expect(sim.device.nextDeadline == 3)
        try sim.onDevice(.wait(2.5))
        #expect(sim.state("a") == .background)
        let outcome = try sim.onDevice(.wait(1))
        #expect(outcome.entries.map(\.line) == ["device advanceTime", "state background→suspended"])
        #expect(outcome.entries.last?.time == 3)
        #expect(sim.time == 3.5)
    }

    @Test("§4 the suspension rule waits for tasks, activities and callback windows")
    func suspensionWaits() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", backgroundModes: ["audio"])
        try sim.on("a", .foregroundLaunch, .startBackgroundActivity(mode: "audio"), .homeButton)
        #expect(sim.state("a") == .background)
        #expect(sim.device.nextDeadline == nil)
        try sim.on("a", .stopBackgroundActivity(mode: "audio"))
        #expect(sim.state("a") == .suspended)
    }
}
