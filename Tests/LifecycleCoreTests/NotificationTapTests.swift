import Testing

@testable import LifecycleCore

/// §5: a tap on an app's notification launches or resumes the app with it (seed 000 §3.2; Apple's
/// `UIApplicationLaunchOptionsRemoteNotificationKey` and `application:didReceiveRemoteNotification:`).
@Suite struct NotificationTapTests {
    static let payload: JSONValue = ["aps": ["alert": "hi"]]

    static func tap(_ source: NotificationSource) -> Event { .tapNotification(source: source, payload: payload) }

    @Test(
        "§5 a tap on a banner of a not-running app launches it as a tap on its icon does, the notification in its launch options"
    )
    func coldLaunch() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", Self.tap(.banner))
        var icon = Sim(ios: "7.0")
        icon.add("a")
        try icon.on("a", .foregroundLaunch)
        #expect(sim.trace("a") == icon.trace("a"))
        #expect(sim.entries.callbackArgs(of: "a")[1] == ["remoteNotification": Self.payload])
        #expect(!sim.entries.selectors(of: "a").contains { $0.contains("didReceiveRemoteNotification") })
    }

    @Test("§5 a tap on a suspended app's banner: the foreground path, with the notification while inactive")
    func resumeFromSuspended() throws {
        var sim = try Sim.aBehindB(ios: "7.0")
        try sim.on("a", Self.tap(.banner))
        var icon = try Sim.aBehindB(ios: "7.0")
        try icon.on("a", .activate(session: nil))
        var expected = icon.last.entries.trace(of: "a")
        let inactive = try #require(expected.firstIndex(of: "state background→inactive"))
        expected.insert(
            "call application:didReceiveRemoteNotification:fetchCompletionHandler: [inactive]", at: inactive + 1)
        #expect(sim.last.entries.trace(of: "a") == expected)
        #expect(sim.last.entries.trace(of: "b") == icon.last.entries.trace(of: "b"))
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("§5 before iOS 7 the callback is application:didReceiveRemoteNotification:")
    func olderCallback() throws {
        var sim = try Sim.aBehindB(ios: "6.0")
        try sim.on("a", Self.tap(.banner))
        #expect(sim.last.entries.trace(of: "a").contains("call application:didReceiveRemoteNotification: [inactive]"))
    }

    @Test("§5 from Notification Center the app in front goes from inactive straight to the background")
    func fromNotificationCenter() throws {
        var sim = try Sim.aBehindB(ios: "7.0")
        try sim.onDevice(.notificationCenterOpened)
        try sim.on("a", Self.tap(.notificationCenter))
        #expect(
            sim.last.entries.trace(of: "b") == Sim.inactiveStraightToSuspended)
        #expect(!sim.device.notificationCenterOpen)
        #expect(sim.device.foregroundApp == "a")
        #expect(sim.device.apps["a"]?.state == .active)
    }

    @Test("§5 tapping the front app's own entry in Notification Center: the notification, then active again")
    func ownEntryInNotificationCenter() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .notificationCenterOpened, Self.tap(.notificationCenter))
        #expect(
            sim.last.entries.trace(of: "a").suffix(4) == [
                "call application:didReceiveRemoteNotification:fetchCompletionHandler: [inactive]",
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
    }

    @Test("§5 before iOS 5 a notification is an alert: tapping it ends the alert and brings its app forward")
    func alertBeforeIOS5() throws {
        var sim = try Sim.aBehindB(ios: "4.2")
        try sim.onDevice(.bannerNotification(title: "hi"))
        #expect(sim.device.interruption == .alert)
        try sim.on("a", Self.tap(.alert))
        #expect(sim.device.interruption == nil)
        #expect(sim.device.foregroundApp == "a")
        #expect(sim.last.entries.trace(of: "a").contains("call application:didReceiveRemoteNotification: [inactive]"))
        #expect(sim.last.entries.trace(of: "b").first == "state inactive→background")
    }

    @Test("§5 a tap that cannot happen is refused and changes nothing")
    func refusals() throws {
        var sim = Sim(ios: "4.2")
        sim.add("a")
        // No banners before iOS 5.0, no alert showing, no Notification Center open.
        #expect(sim.rejection("a", Self.tap(.banner))?.allowed == ["alert"])
        #expect(sim.rejection("a", Self.tap(.alert))?.allowed == ["bannerNotification", "interruptionBegan"])
        var modern = Sim(ios: "7.0")
        modern.add("a")
        #expect(modern.rejection("a", Self.tap(.notificationCenter))?.allowed == ["notificationCenterOpened"])
        // An alert under Notification Center: the tap would end the alert, but Notification Center still
        // covers the screen, so nothing happens, the alert included (found by the random walk).
        try modern.onDevice(.interruptionBegan(kind: .alert), .notificationCenterOpened)
        #expect(modern.rejection("a", Self.tap(.alert))?.allowed == ["notificationCenterClosed"])
        #expect(modern.device.interruption == .alert)
        try modern.onDevice(.notificationCenterClosed, .interruptionEnded(accepted: false), .lock)
        #expect(modern.rejection("a", Self.tap(.banner))?.allowed == ["unlock"])
        #expect(modern.device.apps["a"]?.state == .notRunning)
    }
}
