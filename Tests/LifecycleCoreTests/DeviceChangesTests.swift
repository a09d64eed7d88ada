import Testing

@testable import LifecycleCore

@Suite("§7 Notifications queued while suspended")
struct DeviceChangesTests {
    /// A device with a running app "run", a suspended app "sleep" and a not-running app "off".
    static func threeApps() throws -> Sim {
        var sim = Sim(ios: "7.0")
        sim.add("run")
        sim.add("sleep")
        sim.add("off")
        try sim.on("sleep", .foregroundLaunch, .homeButton)
        try sim.on("run", .foregroundLaunch)
        return sim
    }

    @Test(
        "§7 each change kind becomes its notification",
        arguments: [
            (ChangeKind.accessory, JSONValue("connected"), "EAAccessoryDidConnectNotification"),
            (.orientation, "landscapeLeft", "UIDeviceOrientationDidChangeNotification"),
            (.batteryLevel, 0.5, "UIDeviceBatteryLevelDidChangeNotification"),
            (.batteryState, "charging", "UIDeviceBatteryStateDidChangeNotification"),
            (.proximity, true, "UIDeviceProximityStateDidChangeNotification"),
            (.screen, "connected", "UIScreenDidConnectNotification"),
            (.screenMode, "wide", "UIScreenModeDidChangeNotification"),
            (.settings, JSONValue.object(["volume": 3]), "NSUserDefaultsDidChangeNotification"),
            (.locale, "fr_FR", "NSCurrentLocaleDidChangeNotification"),
            (.ubiquityIdentity, "token", "NSUbiquityIdentityDidChangeNotification"),
        ])
    func changeTable(kind: ChangeKind, value: JSONValue, name: String) throws {
        var sim = try Self.threeApps()
        try sim.onDevice(.change(kind: kind, value: value))
        #expect(sim.last.entries.map(\.line) == ["device change", "post \(name)"])
        #expect(sim.last.entries[1].app == "run")
        #expect(sim.app("sleep").queuedNotifications.map(\.name) == [name])
        #expect(sim.device.settings[kind.rawValue] == value)
    }

    @Test("§7 a disconnect is its own notification")
    func disconnectNames() {
        #expect(ChangeKind.accessory.notificationName(for: "disconnected") == "EAAccessoryDidDisconnectNotification")
        #expect(ChangeKind.screen.notificationName(for: "disconnected") == "UIScreenDidDisconnectNotification")
    }

    @Test("§7 significantTime: running apps get applicationSignificantTimeChange: and its notification")
    func significantTime() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(.change(kind: .significantTime, value: nil))
        #expect(
            sim.last.entries.trace(of: "run") == [
                "call applicationSignificantTimeChange: [active]",
                "post UIApplicationSignificantTimeChangeNotification",
            ])
        #expect(sim.app("sleep").queuedNotifications.map(\.name) == [Note.significantTime])
    }

    @Test("§7 a queued significant time change arrives with its delegate method when the app runs again")
    func queuedSignificantTimeComesWithItsDelegateMethod() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(.change(kind: .significantTime, value: nil), .change(kind: .significantTime, value: nil))
        #expect(sim.app("sleep").queuedNotifications.map(\.coalesced) == [2])
        try sim.on("sleep", .activate(session: nil))
        #expect(
            Array(sim.last.entries.trace(of: "sleep").dropFirst().prefix(4)) == [
                "call applicationWillEnterForeground: [background]",
                "post UIApplicationWillEnterForegroundNotification",
                "call applicationSignificantTimeChange: [background]",
                "queued UIApplicationSignificantTimeChangeNotification",
            ])
    }

    @Test("§7 a running app in the background gets changes at once")
    func backgroundRunningGetsThem() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task(), .homeButton)
        try sim.onDevice(.change(kind: .orientation, value: "faceUp"))
        #expect(sim.last.entries.trace(of: "a") == ["post UIDeviceOrientationDidChangeNotification"])
    }

    @Test("§7 not-running apps get nothing")
    func notRunningGetsNothing() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(.change(kind: .orientation, value: "faceUp"), .change(kind: .significantTime, value: nil))
        #expect(sim.entries.of("off").isEmpty)
        #expect(sim.app("off").queuedNotifications.isEmpty)
    }

    @Test("§7 the queue keeps one notification per name with the net change")
    func coalesce() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(
            .change(kind: .orientation, value: "landscapeLeft"), .change(kind: .orientation, value: "landscapeRight"),
            .change(kind: .locale, value: "fr_FR"))
        let queue = sim.app("sleep").queuedNotifications
        #expect(queue.map(\.name) == [Note.orientation, Note.locale])
        #expect(queue.map(\.coalesced) == [2, 1])
        #expect(queue[0].userInfo == ["value": "landscapeRight"])
        #expect(queue.map(\.queuedAt) == [0, 0])
    }

    @Test("§7 three time changes leave one")
    func threeTimeChanges() throws {
        var sim = try Self.threeApps()
        let time = Event.change(kind: .significantTime, value: nil)
        try sim.onDevice(time, time, time)
        #expect(sim.app("sleep").queuedNotifications.map(\.name) == [Note.significantTime])
        #expect(sim.app("sleep").queuedNotifications.map(\.coalesced) == [3])
    }

    @Test("§7 no net change, no notification: connected then disconnected leaves nothing")
    func netZero() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(
            .change(kind: .accessory, value: "connected"), .change(kind: .accessory, value: "disconnected"))
        #expect(sim.app("sleep").queuedNotifications.isEmpty)
        try sim.onDevice(
            .change(kind: .orientation, value: "faceUp"), .change(kind: .orientation, value: "faceDown"),
            .change(kind: .orientation, value: "portrait"))
        #expect(sim.app("sleep").queuedNotifications.isEmpty)
    }

    @Test("§7 a change to the current value is no change at all")
    func sameValue() throws {
        var sim = try Self.threeApps()
        let outcome = try sim.onDevice(.change(kind: .orientation, value: "portrait"))
        #expect(outcome.entries.map(\.line) == ["device change"])
        #expect(outcome.changed == false)
    }

    @Test("§7 the queue is delivered when the app next runs code, before any input")
    func deliveredBeforeInput() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(.change(kind: .batteryState, value: "charging"))
        try sim.on("sleep", .activate(session: nil), .touch)
        let lines = sim.last.entries.trace(of: "sleep")
        #expect(
            lines.firstIndex(of: "queued UIDeviceBatteryStateDidChangeNotification")! < lines.firstIndex(
                of: "runloop touch true")!)
        #expect(sim.app("sleep").queuedNotifications.isEmpty)
        let delivered = sim.last.entries.of("sleep").first { $0.line.hasPrefix("queued") }
        #expect(
            delivered?.body
                == .notification(
                    name: "UIDeviceBatteryStateDidChangeNotification", userInfo: ["value": "charging"], queuedAt: 0,
                    coalesced: 1))
    }

    @Test("§7 a suspended app that is purged loses its queue")
    func purgeDropsQueue() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(.change(kind: .locale, value: "de_DE"), .memoryPressure(level: .critical))
        #expect(sim.app("sleep").queuedNotifications.isEmpty)
        #expect(sim.state("sleep") == .notRunning)
    }

    @Test("§7 statusBarFrame goes to the foreground app only, as its two callbacks, and is not queued")
    func statusBarFrame() throws {
        var sim = try Self.threeApps()
        try sim.onDevice(.change(kind: .statusBarFrame, value: ["height": 40]))
        #expect(
            sim.last.entries.trace(of: "run") == [
                "call application:willChangeStatusBarFrame: [active]",
                "post UIApplicationWillChangeStatusBarFrameNotification",
                "call application:didChangeStatusBarFrame: [active]",
                "post UIApplicationDidChangeStatusBarFrameNotification",
            ])
        #expect(sim.app("sleep").queuedNotifications.isEmpty)
    }

    @Test("§7 invalid change values are refused")
    func invalidValues() throws {
        var sim = try Self.threeApps()
        let before = sim.device
        #expect(sim.rejection(nil, .change(kind: .orientation, value: "sideways"))?.field == "value")
        #expect(sim.rejection(nil, .change(kind: .batteryLevel, value: 2))?.code == .invalidField)
        #expect(sim.rejection(nil, .change(kind: .locale, value: nil))?.code == .invalidField)
        #expect(sim.device == before)
    }
}
