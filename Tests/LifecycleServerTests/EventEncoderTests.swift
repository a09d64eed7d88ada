import LifecycleCore
@testable import LifecycleWire
import Testing

@testable import LifecycleServer

/// The events a `moveTo` answers in `applied` (and names in `blockedBy`) read back as the same events.
@Suite struct EventEncoderTests {
    static let edgeCases: [Event] = [
        .launch(background: false, url: nil, sourceApplication: nil),
        .launch(background: true, url: nil, sourceApplication: nil),
        .openScene(session: nil, url: nil, sourceApplication: nil, placement: .fullScreen),
        .remoteNotification(payload: .null, contentAvailable: false),
        .change(kind: .ubiquityIdentity, value: .null),
        .change(kind: .significantTime, value: nil),
        .beginBackgroundTask(name: "moveTo", duration: nil),
        .interruptionEnded(accepted: false),
    ]

    @Test func everyEventTypeReadsBackAsTheSameEvent() throws {
        let events = try Event.allTypes.map(JournalRecordFormatTests.event) + Self.edgeCases
        for event in events {
            #expect(try EventDecoder.decodeOne(EventEncoder.json(event), deviceOnly: false) == event, "\(event)")
        }
    }

    @Test func optionalMembersAreWrittenOnlyWhenTheyMeanSomething() {
        #expect(EventEncoder.json(.launch(background: false, url: nil, sourceApplication: nil)) == ["type": "launch"])
        #expect(
            EventEncoder.json(.beginBackgroundTask(name: "moveTo", duration: nil)) == [
                "type": "beginBackgroundTask", "name": "moveTo",
            ])
        #expect(EventEncoder.json(.moveTo(state: .background)) == ["type": "moveTo", "state": "background"])
    }
}
