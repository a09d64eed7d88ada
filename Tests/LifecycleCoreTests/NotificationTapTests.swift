import Testing

@testable import LifecycleCore

/// §5: a tap on an app's notification launches or resumes the app with it (seed 000 §3.2; Apple's
/// `UIApplicationLaunchOptionsRemoteNotificationKey` and `application:didReceiveRemoteNotification:`).
@Suite struct NotificationTapTests {
    static let payload: JSONValue = ["aps": ["alert": "hi"]]

    static func tap(_ source: NotificationSource) -> Event { .tapNotification(source: source, payload: payload) }

    @Test("§5 a tap on a banner of a not-running app launches it with the notification in its launch options")
    func coldLaunch() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", Self.tap(.banner))
        #expect(
            sim.trace("a") == [
                "state notRunning→inactive",
                "call application:willFinishLaunchingWithOptions: [inactive]",
                "call application:didFinishLaunchingWithOptions: [inactive]",
                "post UIApplicationDidFinishLaunchingNotification",
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
        #expect(sim.entries.callbackArgs(of: "a")[1] == ["remoteNotification": Self.payload])
    }

    @Test("§5 a tap on a suspended app's banner: foreground, the notification while inactive, then active")
    func resumeFromSuspended() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch)
        try sim.on("a", Self.tap(.banner))
        #expect(
            sim.last.entries.trace(of: "a") == [
                "state suspended→background",
                "call applicationWillEnterForeground: [background]",
                "post UIApplicationWillEnterForegroundNotification",
                "state background→inactive",
                "call application:didReceiveRemoteNotification:fetchCompletionHandler: [inactive]",
                "state inactive→active",
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
            ])
        #expect(sim.last.entries.trace(of: "b").contains("call applicationDidEnterBackground: [background]"))
        #expect(sim.device.foregroundApp == "a")
    }

    @Test("§5 before iOS 7 the callback is application:didReceiveRemoteNotification:")
    func olderCallback() throws {
        var sim = Sim(ios: "6.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton, Self.tap(.banner))
        #expect(sim.last.entries.trace(of: "a").contains("call application:didReceiveRemoteNotification: [inactive]"))
    }

    @Test("§5 from Notification Center the app in front goes from inactive straight to the background")
    func fromNotificationCenter() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch, .notificationCenterOpened)
        try sim.on("a", Self.tap(.notificationCenter))
        #expect(
            sim.last.entries.trace(of: "b") == [
                "state inactive→background",
                "call applicationDidEnterBackground: [background]",
                "post UIApplicationDidEnterBackgroundNotification",
                "state background→suspended",
            ])
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
        var sim = Sim(ios: "4.2")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.on("b", .foregroundLaunch)
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
        try modern.onDevice(.lock)
        #expect(modern.rejection("a", Self.tap(.banner))?.allowed == ["unlock"])
        #expect(modern.device.apps["a"]?.state == .notRunning)
    }
}
