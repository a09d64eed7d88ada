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
            .remoteNotification(payload: nil, contentAvailable: false),
            .tapNotification(source: .notificationCenter, payload: ["aps": ["alert": "hi"]]), .backgroundFetch,
            .memoryWarning, .prewarm(stage: .main),
            .homeButton, .switchApp(to: "a"), .lock, .unlock, .interruptionBegan(kind: .call),
            .interruptionEnded(accepted: false), .callEnded, .bannerNotification(title: nil), .notificationCenterOpened,
            .notificationCenterClosed, .appSwitcherOpened, .appSwitcherClosed, .memoryPressure(level: .warning),
            .reboot, .advanceTime(seconds: 1),
            .change(kind: .orientation, value: "faceUp"),
            .openScene(session: nil, url: nil, sourceApplication: nil, placement: .split),
            .closeScene(session: "s1"), .disconnectScene(session: "s1"), .moveTo(state: .suspended),
            .backgroundAppRefreshSwitch(enabled: false), .finishTransfer(name: "photo", outcome: .failure),
            .cancelContinuedTask(identifier: "com.example.export.1"),
            .launchTask(app: "a", identifier: "com.example.refresh"),
        ] + RunLoopEvent.allCases.map(Event.runLoop)

    @Test(
        "every event type has its wire name once, and the device events are those that LIFECYCLE §5–§7 and §13 post to a device"
    )
    func wireNamesAndTargets() {
        #expect(Self.everyEvent.map(\.type).sorted() == Event.allTypes.sorted())
        #expect(Set(Event.allTypes).count == Event.allTypes.count)
        #expect(
            Set(Event.deviceTypes) == [
                "homeButton", "switchApp", "lock", "unlock", "interruptionBegan", "interruptionEnded", "callEnded",
                "bannerNotification", "notificationCenterOpened", "notificationCenterClosed", "appSwitcherOpened",
                "appSwitcherClosed", "memoryPressure",
                "reboot", "advanceTime", "change", "launchTask",
            ])
        for event in Self.everyEvent {
            #expect(event.isDeviceEvent == Event.deviceTypes.contains(event.type), "\(event.type)")
        }
    }

    @Test("the catalogue makes each event back from its own field values, and names a missing required field")
    func catalogueRoundTrip() throws {
        for event in Self.everyEvent {
            let (type, values) = (event.eventType, event.fieldValues)
            #expect(type.name == event.type)
            #expect(try type.details.make(values) == event, "\(event)")
            for (index, field) in type.details.fields.enumerated() where field.requirement == .required {
                var missing = values
                missing[index] = nil
                #expect(throws: EventFieldError.missing(index), "\(type) \(field.name)") {
                    try type.details.make(missing)
                }
            }
        }
    }

    @Test("each entry: at most four fields, unique names, defaults of the field's own kind, examples of known fields")
    func catalogueEntriesAreWellFormed() {
        for type in EventType.allCases {
            let details = type.details
            #expect(details.type == type)
            #expect(details.fields.count <= 4, "\(type)")
            #expect(Set(details.fieldNames).count == details.fieldNames.count, "\(type)")
            #expect(!details.fieldNames.contains("type"), "\(type)")
            // Names are written into JSON unescaped (the journal's records): plain identifiers only.
            for name in [details.name] + details.fieldNames {
                #expect(!name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "\(name)")
            }
            #expect(Set(details.example.keys).isSubset(of: details.fieldNames), "\(type)")
            for field in details.fields {
                guard case .defaulted(let value) = field.requirement else { continue }
                switch (field.kind, value) {
                case (.flag, .bool), (.number, .number), (.wholeNumber, .integer), (.text, .string),
                    (.identifier, .string), (.json, .json):
                    break
                case (.choice(let options), .string(let text)):
                    #expect(options.contains(text), "\(type).\(field.name)")
                default:
                    Issue.record("\(type).\(field.name): default \(value) is not a \(field.kind)")
                }
            }
        }
    }
}
