import Testing

@testable import LifecycleCore

struct EventTests {
    /// One event of every type.
    static let everyEvent: [Event] =
        [
            .launch(background: false, url: nil, sourceApplication: nil), .activate(session: nil),
            .openURL(url: "a://b", sourceApplication: nil, annotation: nil, session: nil), .terminate, .forceQuit,
            .crash,
            .beginBackgroundTask(name: nil, duration: nil), .endBackgroundTask(task: 1),
            .startBackgroundActivity(mode: "audio"), .stopBackgroundActivity(mode: "audio"),
            .remoteNotification(payload: nil, contentAvailable: false), .backgroundFetch, .memoryWarning,
            .homeButton, .switchApp(to: "a"), .lock, .unlock, .interruptionBegan(kind: .call),
            .interruptionEnded(accepted: false), .bannerNotification(title: nil), .notificationCenterOpened,
            .notificationCenterClosed, .memoryPressure(level: .warning), .reboot, .advanceTime(seconds: 1),
            .change(kind: .orientation, value: "faceUp"),
            .openScene(session: nil, url: nil, sourceApplication: nil, placement: .split),
            .closeScene(session: "s1"), .disconnectScene(session: "s1"), .moveTo(state: .suspended),
        ] + RunLoopEvent.allCases.map(Event.runLoop)

    @Test("every event type has its wire name once, and the device events are exactly those listed as such")
    func wireNamesAndTargets() {
        #expect(Self.everyEvent.map(\.type).sorted() == Event.allTypes.sorted())
        #expect(Set(Event.allTypes).count == Event.allTypes.count)
        for event in Self.everyEvent {
            #expect(event.isDeviceEvent == Event.deviceTypes.contains(event.type), "\(event.type)")
        }
    }
}
