import Testing

@testable import LifecycleCore

/// The conformance scenarios (`Tests/Conformance/scenarios/*.json`), one test each, at the core level:
/// the same steps as events, the same expectations on states, callbacks and notifications.
@Suite("Conformance scenarios")
struct ConformanceScenarioTests {
    /// A manual-clock device on `ios` with app "a" (and "b" when asked), as every scenario starts.
    static func start(_ ios: String, b: Bool = false, configure: (inout Sim) -> Void = { $0.add("a") }) -> Sim {
        var sim = Sim(ios: ios)
        configure(&sim)
        if b { sim.add("b") }
        #expect(sim.state("a") == .notRunning)
        return sim
    }

    /// `$subsequence`: `expected` appears in `actual` in order, not necessarily adjacent.
    static func isSubsequence(_ expected: [String], of actual: [String]) -> Bool {
        var rest = actual[...]
        for item in expected {
            guard let index = rest.firstIndex(of: item) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    static let launchedOn7 = Launch.ios6 + [Selector.didBecomeActive]
    static let wentHomeOn7 = launchedOn7 + [Selector.willResignActive, Selector.didEnterBackground]

    @Test("01_launch_foreground_ios7")
    func scenario01() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.state("a") == .active)
        #expect(sim.selectors("a") == Self.launchedOn7)
        #expect(Self.isSubsequence([Note.didFinishLaunching, Note.didBecomeActive], of: sim.notifications("a")))
    }

    @Test("02_launch_before_ios3")
    func scenario02() throws {
        var sim = Self.start("2.2")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.selectors("a") == [Selector.didFinishLaunching, Selector.didBecomeActive])
    }

    @Test("03_home_suspends_ios4")
    func scenario03() throws {
        var sim = Self.start("4.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(sim.state("a") == .suspended)
        #expect(
            sim.selectors("a") == Launch.ios3 + [
                Selector.didBecomeActive, Selector.willResignActive, Selector.didEnterBackground,
            ])
        #expect(Self.isSubsequence([Note.willResignActive, Note.didEnterBackground], of: sim.notifications("a")))
    }

    @Test("04_home_terminates_ios3")
    func scenario04() throws {
        var sim = Self.start("3.1")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").termination?.notified == true)
        #expect(sim.selectors("a") == Launch.ios3 + [Selector.didBecomeActive, Selector.willTerminate])
    }

    @Test("05_exits_on_suspend")
    func scenario05() throws {
        var sim = Self.start("6.0") { $0.add("a", exitsOnSuspend: true) }
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .homeButton)
        #expect(sim.state("a") == .notRunning)
        #expect(sim.selectors("a") == Self.launchedOn7 + [Selector.willResignActive, Selector.willTerminate])
    }

    @Test("06_resume_from_suspended")
    func scenario06() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        try sim.on("a", .activate(session: nil))
        #expect(sim.state("a") == .active)
        #expect(sim.selectors("a") == Self.wentHomeOn7 + [Selector.willEnterForeground, Selector.didBecomeActive])
    }

    @Test("07_call_declined")
    func scenario07() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.interruptionBegan(kind: .call))
        #expect(sim.state("a") == .inactive)
        try sim.onDevice(.interruptionEnded(accepted: false))
        #expect(sim.state("a") == .active)
        #expect(sim.selectors("a") == Self.launchedOn7 + [Selector.willResignActive, Selector.didBecomeActive])
    }

    @Test("08_call_accepted_ios4")
    func scenario08() throws {
        var sim = Self.start("4.1")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.interruptionBegan(kind: .call))
        try sim.onDevice(.interruptionEnded(accepted: true))
        #expect(sim.state("a") == .suspended)
        #expect(
            sim.selectors("a") == Launch.ios3 + [
                Selector.didBecomeActive, Selector.willResignActive, Selector.didEnterBackground,
            ])
    }

    @Test("09_banner_changes_nothing_ios5")
    func scenario09() throws {
        var sim = Self.start("5.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.bannerNotification(title: "hello"))
        #expect(sim.state("a") == .active)
        #expect(sim.selectors("a") == Launch.ios3 + [Selector.didBecomeActive])
    }

    @Test("10_lock_unlock_ios7")
    func scenario10() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(sim.state("a") == .suspended)
        try sim.onDevice(.unlock)
        #expect(sim.state("a") == .active)
        #expect(sim.selectors("a") == Self.wentHomeOn7 + [Selector.willEnterForeground, Selector.didBecomeActive])
    }

    @Test("11_lock_ios4_resigns_only")
    func scenario11() throws {
        var sim = Self.start("4.3")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(sim.state("a") == .inactive)
        try sim.onDevice(.unlock)
        #expect(sim.state("a") == .active)
        #expect(
            sim.selectors("a") == Launch.ios3 + [
                Selector.didBecomeActive, Selector.willResignActive, Selector.didBecomeActive,
            ])
    }

    @Test("12_url_launch_ios4_2")
    func scenario12() throws {
        var sim = Self.start("4.2") { $0.add("a", urlSchemes: ["mail"]) }
        try sim.on("a", .urlLaunch("mail://inbox", from: "com.apple.mobilesafari"))
        #expect(sim.state("a") == .active)
        #expect(sim.selectors("a") == Launch.ios3 + [Selector.openURLSourceApplication, Selector.didBecomeActive])
        #expect(
            sim.entries.callbackArgs(of: "a").contains([
                "url": "mail://inbox", "sourceApplication": "com.apple.mobilesafari",
            ]))
    }

    @Test("13_url_wakes_suspended_ios9")
    func scenario13() throws {
        var sim = Self.start("9.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        try sim.on("a", .open("a://x"))
        #expect(sim.state("a") == .active)
        #expect(
            sim.selectors("a") == Self.wentHomeOn7 + [
                Selector.willEnterForeground, Selector.openURLOptions, Selector.didBecomeActive,
            ])
    }

    @Test("14_optional_methods")
    func scenario14() throws {
        var sim = Self.start("7.0") { $0.add("a", notImplemented: [Selector.willResignActive]) }
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(sim.selectors("a") == Self.launchedOn7 + [Selector.didEnterBackground])
        #expect(Self.isSubsequence([Note.willResignActive, Note.didEnterBackground], of: sim.notifications("a")))
    }

    @Test("15_terminate_suspended_silently")
    func scenario15() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        try sim.on("a", .terminate)
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").termination?.notified == false)
        #expect(sim.selectors("a") == Self.wentHomeOn7)
    }

    @Test("16_terminate_background_running")
    func scenario16() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .task("upload"))
        try sim.onDevice(.homeButton)
        #expect(sim.state("a") == .background)
        try sim.on("a", .terminate)
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").termination?.notified == true)
        #expect(sim.selectors("a") == Self.wentHomeOn7 + [Selector.willTerminate])
    }

    @Test("17_background_task_ends_then_suspends")
    func scenario17() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .task("sync", duration: 60))
        try sim.onDevice(.homeButton)
        #expect(sim.state("a") == .background)
        #expect(sim.device.backgroundTimeRemaining(of: sim.app("a")) == 180)
        try sim.onDevice(.wait(30))
        #expect(sim.state("a") == .background)
        #expect(sim.device.backgroundTimeRemaining(of: sim.app("a")) == 150)
        try sim.onDevice(.wait(31))
        #expect(sim.state("a") == .suspended)
    }

    @Test("18_background_task_expires_ios7")
    func scenario18() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .task("long"))
        try sim.onDevice(.homeButton)
        try sim.onDevice(.wait(179))
        #expect(sim.state("a") == .background)
        try sim.onDevice(.wait(2))
        #expect(sim.state("a") == .suspended)
        #expect(sim.selectors("a") == Self.wentHomeOn7 + [Selector.backgroundTaskExpirationHandler])
    }

    @Test("19_watchdog_did_enter_background")
    func scenario19() throws {
        var sim = Self.start("7.0") { $0.add("a", durations: [Selector.didEnterBackground: 7]) }
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").termination?.reason == .watchdog)
        #expect(sim.app("a").termination?.notified == false)
    }

    @Test("20_queued_notifications_coalesce")
    func scenario20() throws {
        var sim = Self.start("7.0") { sim in
            sim = Sim(ios: "7.0", settings: ["orientation": "portrait", "locale": "en_US"])
            sim.add("a")
        }
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        try sim.onDevice(.change(kind: .orientation, value: "landscapeLeft"))
        try sim.onDevice(.change(kind: .orientation, value: "landscapeRight"))
        try sim.onDevice(.change(kind: .locale, value: "fr_FR"))
        let queued = sim.app("a").queuedNotifications.map(\.name)
        #expect(queued.count == 2)
        #expect(queued.contains(Note.orientation))
        #expect(queued.contains(Note.locale))
        try sim.on("a", .activate(session: nil))
        #expect(sim.app("a").queuedNotifications.isEmpty)
        #expect(
            Self.isSubsequence(
                [Note.willEnterForeground, Note.orientation, Note.didBecomeActive], of: sim.notifications("a")))
    }

    @Test("21_net_zero_change_is_dropped")
    func scenario21() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        try sim.onDevice(.change(kind: .accessory, value: "connected"))
        try sim.onDevice(.change(kind: .accessory, value: "disconnected"))
        #expect(sim.app("a").queuedNotifications.isEmpty)
    }

    @Test("22_runloop_inactive_gets_motion_not_touch")
    func scenario22() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.interruptionBegan(kind: .sms))
        #expect(try sim.on("a", .touch).entries.runLoop(of: "a") == [false])
        #expect(try sim.on("a", .runLoop(.motion)).entries.runLoop(of: "a") == [true])
    }

    @Test("23_critical_memory_purges_suspended")
    func scenario23() throws {
        var sim = Self.start("7.0", b: true)
        try sim.on("a", .foregroundLaunch)
        try sim.on("b", .foregroundLaunch)
        #expect(sim.state("a") == .suspended)
        try sim.onDevice(.memoryPressure(level: .critical))
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").termination?.notified == false)
        #expect(sim.state("b") == .active)
        #expect(sim.selectors("b") == Self.launchedOn7 + [Selector.didReceiveMemoryWarning])
    }

    @Test("24_launching_another_app_backgrounds_the_first")
    func scenario24() throws {
        var sim = Self.start("7.0", b: true)
        try sim.on("a", .foregroundLaunch)
        try sim.on("b", .foregroundLaunch)
        #expect(sim.state("a") == .suspended)
        #expect(sim.state("b") == .active)
        #expect(sim.selectors("a") == Self.wentHomeOn7)
        #expect(sim.device.foregroundApp == "b")
    }

    @Test("25_force_quit_no_callback")
    func scenario25() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        try sim.on("a", .forceQuit)
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").termination?.notified == false)
        #expect(sim.selectors("a") == Self.wentHomeOn7)
    }

    @Test("26_errors_are_problem_json")
    func scenario26() {
        var sim = Self.start("7.0")
        #expect(Event.allTypes.contains("launch"))
        #expect(Event.allTypes.contains("homeButton"))
        #expect(!Event.allTypes.contains("teleport"))
        let before = sim.device
        let rejection = sim.rejection(nil, .interruptionEnded(accepted: false))
        #expect(rejection?.code == .invalidTransition)
        #expect(rejection?.code.rawValue == "invalid-transition")
        #expect(sim.device == before)
        #expect(sim.state("a") == .notRunning)
        #expect(sim.selectors("a").isEmpty)
    }

    @Test("27_background_launch_ios7")
    func scenario27() throws {
        var sim = Self.start("7.0")
        try sim.on("a", .backgroundLaunch)
        #expect(sim.state("a") == .suspended)
        #expect(sim.selectors("a") == Launch.ios6)
        #expect(sim.callbackStates("a") == [.background, .background])
    }

    /// The server replays a retried request's first answer; the core's part is that the answer is a value
    /// that can be stored and that the events after it are not undone.
    @Test("28_idempotent_retry")
    func scenario28() throws {
        var sim = Self.start("7.0")
        let first = try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(first.entries.selectors(of: "a") == Self.launchedOn7)
        #expect(sim.state("a") == .suspended)
        #expect(sim.selectors("a") == Self.wentHomeOn7)
    }
}
