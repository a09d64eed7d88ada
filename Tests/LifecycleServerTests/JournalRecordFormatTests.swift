import Foundation
import LifecycleCore
import LifecyclePersistence
@testable import LifecycleWire
import Testing

/// The journal's record format: the core's values under a version tag; every earlier version still reads.
@Suite struct JournalRecordFormatTests {
    /// Fields that event types require, with values at their edges; other types need only `type`.
    static let fields: [String: JSONValue] = [
        "launch": ["background": true, "url": "mail://x", "sourceApplication": "com.example.a"],
        "openURL": ["url": "mail://é\u{1}\"", "annotation": ["n": 1e-300, "list": [true, .null, -0.5]]],
        "beginBackgroundTask": ["name": "upload", "duration": 1e12],
        "endBackgroundTask": ["task": 9_007_199_254_740_991],
        "startBackgroundActivity": ["mode": "audio"],
        "stopBackgroundActivity": ["mode": "audio"],
        "remoteNotification": ["payload": ["aps": ["alert": "hi"]], "contentAvailable": true],
        "tapNotification": ["source": "notificationCenter", "payload": ["aps": ["badge": 1e300]]],
        "switchApp": ["to": "b"],
        "interruptionBegan": ["kind": "call"],
        "interruptionEnded": ["accepted": true],
        "bannerNotification": ["title": "Hello"],
        "memoryPressure": ["level": "critical"],
        "advanceTime": ["seconds": 0.1],
        "change": ["kind": "batteryLevel", "value": 0.25],
        "activate": ["session": "s1"],
        "openScene": ["session": "s2", "url": "mail://y"],
        "closeScene": ["session": "s1"],
        "disconnectScene": ["session": "s2"],
        "moveTo": ["state": "suspended"],
        "backgroundAppRefreshSwitch": ["enabled": false],
        "finishTransfer": ["name": "photo-1", "outcome": "failure"],
        "cancelContinuedTask": ["identifier": "com.example.export.1"],
        "launchTask": ["app": "a", "identifier": "com.example.refresh"],
    ]

    static func event(_ type: String) throws -> Event {
        var members: [String: JSONValue] = ["type": .string(type)]
        if case .object(let extra)? = fields[type] { members.merge(extra) { $1 } }
        return try EventDecoder.decodeOne(.object(members), deviceOnly: false)
    }

    @Test func everyKindOfEntryAndEveryEventTypeRoundTripsInTheCurrentFormat() throws {
        let events = try Event.allTypes.map(Self.event)
        var app = AppConfiguration(bundleId: "com.example.a")
        app.delegate.durations = ["applicationDidEnterBackground:": 86_400]
        var device = DeviceConfiguration()
        device.clockMode = .realtime
        device.clockSpeed = 1_000_000
        device.settings = ["locale": "fr_FR"]
        let entries: [JournaledInput] = [
            .device(configuration: device, wall: 1_763_900_000.123_456),
            .app(id: "a", configuration: app),
            .deleteApp(id: "a"),
            .events(app: "a", now: 12.5, events: events, key: "k", fingerprint: .max),
            .events(app: nil, now: 0, events: [.lock], key: nil, fingerprint: nil),
            .advance(now: 1e12),
        ]
        for entry in entries {
            let bytes = entry.bytes
            #expect(bytes.starts(with: Array(#"{"v":2,"entry":"#.utf8)))
            #expect(try JournaledInput(bytes: bytes) == entry)
        }
    }

    /// Events and clock advances are written by hand, not by `JSONEncoder`: every event type, with each
    /// optional member present and absent and values at their edges, reads back as `JSONEncoder`'s record of
    /// it reads back (the round trip itself is checked above).
    @Test func handWrittenRecordsReadBackLikeCodableOnes() throws {
        var events = try Event.allTypes.map(Self.event)
        events += [
            .launch(background: false, url: nil, sourceApplication: nil),
            .launch(background: true, url: "a\"b\\c\u{0}\u{1f}\né€😀", sourceApplication: "x"),
            .activate(session: nil),
            .openURL(url: "u://", sourceApplication: nil, annotation: nil, session: nil),
            .openURL(url: "u://", sourceApplication: "s", annotation: .null, session: "s1"),
            .openURL(
                url: "u://", sourceApplication: nil,
                annotation: ["k": [1, -0.0, 0.1, 1e-7, .number(.leastNonzeroMagnitude)]], session: nil),
            .beginBackgroundTask(name: nil, duration: nil),
            .beginBackgroundTask(name: "", duration: 0.000_1),
            .endBackgroundTask(task: Int.max),
            .endBackgroundTask(task: Int.min),
            .remoteNotification(payload: nil, contentAvailable: false),
            .remoteNotification(payload: "text", contentAvailable: true),
            .tapNotification(source: .banner, payload: nil),
            .tapNotification(source: .alert, payload: [.null, "é\u{1}"]),
            .openScene(session: nil, url: nil, sourceApplication: nil, placement: .fullScreen),
            .bannerNotification(title: nil),
            .advanceTime(seconds: 1e12),
            .advanceTime(seconds: 123_456.789_012_345),
            .change(kind: .batteryLevel, value: nil),
            .change(kind: .batteryLevel, value: .null),
        ]
        events += RunLoopEvent.allCases.map(Event.runLoop)
        events += AppState.allCases.map { Event.moveTo(state: $0) }
        events += InterruptionKind.allCases.map { Event.interruptionBegan(kind: $0) }
        events += MemoryPressureLevel.allCases.map { Event.memoryPressure(level: $0) }
        var entries: [JournaledInput] = events.map {
            .events(app: "a", now: 0.1, events: [$0], key: nil, fingerprint: nil)
        }
        entries += [
            .events(app: nil, now: 0, events: events, key: "/v1/apps/a/events\n\"k\"", fingerprint: .max),
            .events(app: "a é", now: 1e12, events: [], key: nil, fingerprint: 0),
            .advance(now: 0), .advance(now: 1e-9), .advance(now: 86_400.5),
        ]
        let prefix = Array(#"{"v":2,"entry":"#.utf8)
        for entry in entries {
            let written = try #require(JournalRecordWriter.record(entry, prefix: prefix), "\(entry)")
            #expect(entry.bytes == written)
            let codable = JournalRecordFormat.encodedWithCodable(entry)
            let fromWriter = try JournaledInput(bytes: written)
            #expect(try fromWriter == JournaledInput(bytes: codable), "\(entry)")
        }
        #expect(JournalRecordWriter.record(.deleteApp(id: "a"), prefix: prefix) == nil)
    }

    /// Records as the first release wrote them (the API's request JSON) decode to the same core values; a key
    /// scoped to its request's path reads as the key alone (the record names the app).
    @Test func version1RecordsStillDecode() throws {
        let records: [(String, JournaledInput)] = [
            (
                #"{"config":{"iosVersion":"7.0","passcode":true},"op":"device","wall":1763900000.5}"#,
                .device(
                    configuration: try DeviceRequest(["iosVersion": "7.0", "passcode": true]).configuration,
                    wall: 1_763_900_000.5)
            ),
            (
                #"{"config":{"bundleId":"com.example.mail"},"id":"mail","op":"app"}"#,
                .app(id: "mail", configuration: AppConfiguration(bundleId: "com.example.mail"))
            ),
            (#"{"id":"mail","op":"deleteApp"}"#, .deleteApp(id: "mail")),
            (
                #"{"app":"mail","events":[{"type":"launch"},{"type":"homeButton"}],"fp":"18446744073709551615","key":"/v1/apps/mail/events\nk1","now":3,"op":"events"}"#,
                .events(
                    app: "mail", now: 3,
                    events: [.launch(background: false, url: nil, sourceApplication: nil), .homeButton],
                    key: "k1", fingerprint: .max)
            ),
            (
                #"{"app":null,"events":{"seconds":30,"type":"advanceTime"},"now":0,"op":"events"}"#,
                .events(app: nil, now: 0, events: [.advanceTime(seconds: 30)], key: nil, fingerprint: nil)
            ),
            (#"{"now":42.5,"op":"advance"}"#, .advance(now: 42.5)),
        ]
        for (text, entry) in records {
            #expect(
                try JournaledInput(bytes: Array(text.utf8)) == entry, "\(text)")
        }
    }

    @Test func aNewerVersionIsRefusedByName() throws {
        #expect(throws: JournalRecordFormat.UnknownVersion.self) {
            try JournaledInput(bytes: Array(#"{"v":3,"entry":{}}"#.utf8))
        }
    }
}
