import Testing

@testable import LifecycleCore

/// §6: an app that talks to accessories loses its session when it enters the background and gets it back
/// when it returns (seed 000 §3.3 (8)).
@Suite struct AccessoryTests {
    static let disconnect = "post EAAccessoryDidDisconnectNotification"
    static let connect = "post EAAccessoryDidConnectNotification"

    /// An iOS 7 device with an accessory connected (unless not) and app `a` declaring a protocol.
    static func sim(connected: Bool = true, modes: [String] = [], protocols: [String]? = ["com.example.dock"]) -> Sim {
        var sim = Sim(ios: "7.0", settings: ["accessory": connected ? "connected" : "disconnected"])
        sim.add("a", backgroundModes: modes, accessoryProtocols: protocols)
        return sim
    }

    @Test(
        "§6 Home: the disconnection right after UIApplicationDidEnterBackgroundNotification; back: the connection after the foreground notification"
    )
    func acrossTheBackground() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch)
        #expect(!sim.last.entries.trace(of: "a").contains(Self.connect))
        try sim.on("a", .homeButton)
        let away = sim.last.entries.trace(of: "a")
        let posted = try #require(away.firstIndex(of: "post UIApplicationDidEnterBackgroundNotification"))
        #expect(away[posted + 1] == Self.disconnect)
        #expect(away.filter { $0 == Self.disconnect }.count == 1)
        #expect(
            sim.last.entries.of("a").last { $0.line == Self.disconnect }.map(\.body)
                == .notification(
                    name: "EAAccessoryDidDisconnectNotification", userInfo: ["reason": "appEnteredBackground"],
                    queuedAt: nil,
                    coalesced: nil))
        try sim.on("a", .activate(session: nil))
        let back = sim.last.entries.trace(of: "a")
        let returning = try #require(back.firstIndex(of: "post UIApplicationWillEnterForegroundNotification"))
        #expect(back[returning + 1] == Self.connect)
        #expect(back.firstIndex(of: "state background→inactive")! > returning + 1)
    }

    @Test(
        "§6 out of the foreground it hears nothing of the accessory, and gets the connection back only if one is there")
    func nothingInBetween() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.onDevice(
            .change(kind: .accessory, value: "disconnected"), .change(kind: .accessory, value: "connected"))
        try sim.onDevice(.change(kind: .accessory, value: "disconnected"))
        #expect(sim.last.entries.of("a").isEmpty)
        #expect(sim.app("a").queuedNotifications.isEmpty)
        try sim.on("a", .activate(session: nil))
        #expect(!sim.last.entries.trace(of: "a").contains { $0.hasPrefix("post EAAccessory") })
        // In front, it hears changes again.
        try sim.onDevice(.change(kind: .accessory, value: "connected"))
        #expect(sim.last.entries.trace(of: "a") == [Self.connect])
    }

    @Test("§6 no accessory connected, no protocol declared, or the external-accessory mode: nothing of this")
    func whoGetsIt() throws {
        for var sim in [
            Self.sim(connected: false), Self.sim(protocols: nil), Self.sim(modes: ["external-accessory"]),
        ] {
            try sim.on("a", .foregroundLaunch, .homeButton, .activate(session: nil))
            #expect(!sim.entries.trace(of: "a").contains { $0.hasPrefix("post EAAccessory") })
        }
        // The mode keeps the session: changes reach the suspended app's queue as they reach every app's.
        var kept = Self.sim(modes: ["external-accessory"])
        try kept.on("a", .foregroundLaunch, .homeButton)
        try kept.onDevice(.change(kind: .accessory, value: "disconnected"))
        #expect(kept.app("a").queuedNotifications.map(\.name) == ["EAAccessoryDidDisconnectNotification"])
    }

    @Test("§6 a lock that sends the app to the background (iOS 5+) disconnects it too; a watchdog kill does not")
    func otherWaysOut() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.lock)
        #expect(sim.last.entries.trace(of: "a").contains(Self.disconnect))
        var killed = Sim(ios: "7.0", settings: ["accessory": "connected"])
        killed.add("a", durations: ["applicationDidEnterBackground:": 6], accessoryProtocols: ["com.example.dock"])
        try killed.on("a", .foregroundLaunch, .homeButton)
        #expect(killed.state("a") == .notRunning)
        #expect(!killed.last.entries.trace(of: "a").contains(Self.disconnect))
    }

    @Test("§6 a scene app: the pair follows the app as a whole, once")
    func sceneApp() throws {
        var sim = Sim(ios: "13.0", settings: ["accessory": "connected"])
        sim.add("a", scenes: .standard, accessoryProtocols: ["com.example.dock"])
        try sim.on("a", .foregroundLaunch, .homeButton)
        let away = sim.last.entries.trace(of: "a")
        let posted = try #require(away.firstIndex(of: "post UIApplicationDidEnterBackgroundNotification"))
        #expect(away[posted + 1] == Self.disconnect)
        try sim.on("a", .activate(session: nil))
        let back = sim.last.entries.trace(of: "a")
        let returning = try #require(back.firstIndex(of: "post UIApplicationWillEnterForegroundNotification"))
        #expect(back[returning + 1] == Self.connect)
        #expect(back.filter { $0 == Self.connect }.count == 1)
    }
}
