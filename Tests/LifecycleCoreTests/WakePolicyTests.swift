import Foundation
import Testing

@testable import LifecycleCore

/// LIFECYCLE §6, "The wake policy": one rule decides whether a fetch or a silent push wakes an app that is not in
/// front; a refusal is a `wakeRefused` entry, not an error.
@Suite struct WakePolicyTests {
    static let modes = ["fetch", "remote-notification"]
    static let wakes: [(Wake, Event)] = [(.backgroundFetch, .backgroundFetch), (.silentPush, .contentAvailablePush)]

    static func sim(ios: String = "13.0", settings: [String: JSONValue] = [:]) -> Sim {
        var sim = Sim(ios: ios, settings: settings)
        sim.add("a", backgroundModes: modes)
        sim.add("b")
        return sim
    }

    @Test(
        "§6 wake policy: after the user's force-quit a fetch or a silent push does not wake the app; a refusal entry says why",
        arguments: ["7.0", "13.0", "17.0"], [0, 1])
    func forceQuitStopsWakes(ios: String, wake: Int) throws {
        let (kind, event) = Self.wakes[wake]
        var sim = Self.sim(ios: ios)
        try sim.on("a", .foregroundLaunch, .homeButton, .forceQuit)
        #expect(sim.app("a").wakesStoppedByForceQuit)
        let outcome = try sim.on("a", event)
        #expect(outcome.changed)
        #expect(sim.last.entries.trace(of: "a") == ["refused \(kind.rawValue) forceQuit"])
        #expect(sim.state("a") == .notRunning)
    }

    @Test(
        "§6 wake policy: a system end (terminate, memory, watchdog, reboot) does not stop wakes",
        arguments: [0, 1, 2, 3])
    func systemKillDoesNotStopWakes(kill: Int) throws {
        var sim = Self.sim()
        switch kill {
        case 0: try sim.on("a", .foregroundLaunch, .homeButton, .terminate)
        case 1: try sim.on("a", .foregroundLaunch, .homeButton, .memoryPressure(level: .critical))
        case 2:
            sim = Sim(ios: "13.0")
            sim.add("a", backgroundModes: Self.modes, durations: [Selector.performFetch: 40])
            try sim.on("a", .backgroundFetch, .wait(31))
        default: try sim.on("a", .foregroundLaunch, .homeButton, .reboot)
        }
        #expect(sim.state("a") == .notRunning)
        #expect(!sim.app("a").wakesStoppedByForceQuit)
        try sim.on("a", .backgroundFetch)
        #expect(sim.last.entries.selectors(of: "a").last == Selector.performFetch)
        #expect(sim.state("a") != .notRunning)
    }

    @Test("§6 wake policy: the user's launch, or a restart, lets the system wake the app again", arguments: [0, 1])
    func launchOrRebootLiftsTheStop(lift: Int) throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .forceQuit)
        if lift == 0 { try sim.on("a", .foregroundLaunch, .homeButton) } else { try sim.onDevice(.reboot) }
        #expect(!sim.app("a").wakesStoppedByForceQuit)
        try sim.on("a", .contentAvailablePush)
        #expect(sim.last.entries.selectors(of: "a").last == Selector.didReceiveRemoteNotificationFetch)
    }

    @Test("§6 wake policy: a background launch by the system is not the user's and does not lift the stop")
    func backgroundLaunchKeepsTheStop() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .forceQuit, .backgroundLaunch)
        #expect(sim.app("a").wakesStoppedByForceQuit)
        try sim.on("a", .backgroundFetch)
        #expect(sim.last.entries.trace(of: "a") == ["refused backgroundFetch forceQuit"])
    }

    @Test("§6 wake policy: a scene app swiped away is not woken either")
    func sceneAppForceQuit() throws {
        var sim = Sim(ios: "15.0")
        sim.add("a", backgroundModes: Self.modes, scenes: .standard)
        try sim.on("a", .foregroundLaunch, .forceQuit)
        try sim.on("a", .backgroundFetch)
        #expect(sim.last.entries.trace(of: "a") == ["refused backgroundFetch forceQuit"])
    }

    @Test("§6 wake policy: before iOS 7 a force-quit changes nothing more than it did")
    func beforeIOS7() throws {
        var sim = Sim(ios: "6.0")
        sim.add("a", backgroundModes: Self.modes)
        try sim.on("a", .foregroundLaunch, .forceQuit)
        #expect(!sim.app("a").wakesStoppedByForceQuit)
        #expect(try sim.on("a", .forceQuit) == Outcome(entries: [], changed: false))
        #expect(sim.rejection("a", .backgroundFetch)?.code == .invalidTransition)
        #expect(sim.device.backgroundRefreshStatus(of: sim.app("a")) == nil)
    }

    @Test(
        "§6 wake policy: Background App Refresh off or restricted on the device, or off for the app, refuses both wakes",
        arguments: [0, 1, 2], [0, 1])
    func backgroundAppRefreshSwitches(setting: Int, wake: Int) throws {
        let (kind, event) = Self.wakes[wake]
        var sim = Self.sim()
        let expected: (WakeRefusal, BackgroundRefreshStatus)
        switch setting {
        case 0:
            try sim.onDevice(.change(kind: .backgroundAppRefresh, value: "off"))
            expected = (.backgroundAppRefreshOff, .denied)
        case 1:
            try sim.onDevice(.change(kind: .backgroundAppRefresh, value: "restricted"))
            expected = (.backgroundAppRefreshRestricted, .restricted)
        default:
            try sim.on("a", .backgroundAppRefreshSwitch(enabled: false))
            expected = (.appBackgroundAppRefreshOff, .denied)
        }
        #expect(sim.device.backgroundRefreshStatus(of: sim.app("a")) == expected.1)
        #expect(sim.device.backgroundRefreshStatus(of: sim.app("b")) == (setting == 2 ? .available : expected.1))
        try sim.on("a", event)
        #expect(sim.last.entries.trace(of: "a") == ["refused \(kind.rawValue) \(expected.0.rawValue)"])
        #expect(sim.state("a") == .notRunning)
    }

    @Test("§6 wake policy: the force-quit is the reason named first when several hold")
    func forceQuitIsNamedFirst() throws {
        var sim = Self.sim(settings: ["backgroundAppRefresh": "off", "lowPowerMode": true])
        try sim.on("a", .foregroundLaunch, .forceQuit)
        try sim.on("a", .backgroundFetch)
        #expect(sim.last.entries.trace(of: "a") == ["refused backgroundFetch forceQuit"])
    }

    @Test(
        "§6 wake policy: Low Power Mode (iOS 9+) turns Background App Refresh off and posts the power-state notification"
    )
    func lowPowerMode() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.change(kind: .lowPowerMode, value: true))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "post NSProcessInfoPowerStateDidChangeNotification",
                "post UIApplicationBackgroundRefreshStatusDidChangeNotification",
            ])
        #expect(sim.device.backgroundRefreshStatus(of: sim.app("a")) == .denied)
        try sim.on("a", .homeButton)
        try sim.on("a", .backgroundFetch)
        #expect(sim.last.entries.trace(of: "a") == ["refused backgroundFetch lowPowerMode"])
        try sim.onDevice(.change(kind: .lowPowerMode, value: false))
        try sim.on("a", .backgroundFetch)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.performFetch])
    }

    @Test("§6 wake policy: before iOS 9 Low Power Mode does not exist: it posts nothing and refuses nothing")
    func lowPowerModeBeforeIOS9() throws {
        var sim = Self.sim(ios: "8.0")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.change(kind: .lowPowerMode, value: true))
        #expect(sim.last.entries.trace(of: "a").isEmpty)
        try sim.on("a", .homeButton)
        try sim.on("a", .backgroundFetch)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.performFetch])
    }

    @Test(
        "§6 wake policy: a change of backgroundRefreshStatus is posted to running apps, queued for suspended ones, and only where the status changed"
    )
    func statusNotification() throws {
        var sim = Self.sim()
        sim.add("c")
        try sim.on("a", .foregroundLaunch, .homeButton)  // suspended
        try sim.on("b", .foregroundLaunch)  // in front
        try sim.on("c", .backgroundAppRefreshSwitch(enabled: false))  // not running, and already denied
        try sim.onDevice(.change(kind: .backgroundAppRefresh, value: "off"))
        #expect(sim.last.entries.trace(of: "b") == ["post \(WakePolicy.statusNotification)"])
        #expect(sim.last.entries.trace(of: "a").isEmpty)
        #expect(sim.app("a").queuedNotifications.map(\.name) == [WakePolicy.statusNotification])
        #expect(sim.last.entries.trace(of: "c").isEmpty)
        // Off then on again while suspended: no net change, nothing left to deliver.
        try sim.onDevice(.change(kind: .backgroundAppRefresh, value: "on"))
        #expect(sim.app("a").queuedNotifications.isEmpty)
        // The app's own switch: only that app hears.
        try sim.on("b", .backgroundAppRefreshSwitch(enabled: false))
        #expect(sim.last.entries.trace(of: "b") == ["post \(WakePolicy.statusNotification)"])
        #expect(try sim.on("b", .backgroundAppRefreshSwitch(enabled: false)).changed == false)
    }

    @Test("§6 wake policy: a push to the app in front is not a wake, whatever the settings")
    func foregroundPushIsNotAWake() throws {
        var sim = Self.sim(settings: ["backgroundAppRefresh": "off"])
        try sim.on("a", .foregroundLaunch)
        try sim.on("a", .contentAvailablePush)
        #expect(sim.last.entries.selectors(of: "a") == [Selector.didReceiveRemoteNotificationFetch])
    }

    @Test(
        "§6 wake policy: from iOS 13, 3 silent pushes wake an app in any hour; the next is refused until the hour passes"
    )
    func silentPushBudget() throws {
        var sim = Self.sim()
        for _ in 0..<3 {
            try sim.on("a", .contentAvailablePush, .wait(60))
            #expect(sim.last.entries.selectors(of: "a").contains(Selector.didReceiveRemoteNotificationFetch))
        }
        try sim.on("a", .contentAvailablePush)
        #expect(sim.last.entries.trace(of: "a") == ["refused silentPush silentPushBudget"])
        try sim.on("a", .backgroundFetch)  // fetches have no such budget
        #expect(sim.last.entries.selectors(of: "a") == [Selector.performFetch])
        try sim.on("a", .wait(3600 - 180 + 1), .contentAvailablePush)
        #expect(sim.last.entries.selectors(of: "a").contains(Selector.didReceiveRemoteNotificationFetch))
    }

    @Test("§6 wake policy: before iOS 13 silent pushes have no budget")
    func noBudgetBeforeIOS13() throws {
        var sim = Self.sim(ios: "12.0")
        for _ in 0..<5 {
            try sim.on("a", .contentAvailablePush)
            #expect(sim.last.entries.selectors(of: "a").contains(Selector.didReceiveRemoteNotificationFetch))
        }
    }

    @Test("§6 wake policy: the settings are device settings with their initial values, and kept across saves")
    func settingsAndCoding() throws {
        var sim = Self.sim()
        #expect(sim.device.settings["backgroundAppRefresh"] == "on")
        #expect(sim.device.settings["lowPowerMode"] == false)
        #expect(sim.rejection(nil, .change(kind: .backgroundAppRefresh, value: "wifi"))?.code == .invalidField)
        #expect(sim.rejection(nil, .change(kind: .lowPowerMode, value: 1))?.code == .invalidField)
        try sim.on("a", .foregroundLaunch, .forceQuit, .backgroundAppRefreshSwitch(enabled: false))
        let copy = try JSONDecoder().decode(Device.self, from: JSONEncoder().encode(sim.device))
        #expect(copy == sim.device)
        #expect(copy.app("a")!.wakesStoppedByForceQuit)
        #expect(!copy.app("a")!.backgroundAppRefreshSwitch)
    }
}
