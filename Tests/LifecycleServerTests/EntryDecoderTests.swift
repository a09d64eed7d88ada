import LifecycleCore
import LifecycleJSON
@testable import LifecycleWire
import Testing

/// `EntryDecoder` reads back exactly what `EntryEncoder` wrote: snapshots store entries as the core's values,
/// read back from what hosts keep as served, so any member the two disagree on would be lost at a restart.
@Suite struct EntryDecoderTests {
    static func roundTrip(_ entry: TimelineEntry) throws -> TimelineEntry? {
        var w = JSONWriter()
        EntryEncoder.write(entry, into: &w)
        return EntryDecoder.entry(try JSONParser.parse(w.bytes))
    }

    /// Every kind, each optional member present and absent, values at their edges.
    static let handMade: [TimelineEntry] = {
        let args: [String: JSONValue] = ["url": "a\"b\\c\u{0}é😀", "n": [1, -0.0, 1e-7, .null, ["k": true]]]
        let bodies: [TimelineEntry.Body] = [
            .callback(
                selector: "application:didFinishLaunchingWithOptions:", state: .inactive, args: args, duration: 0),
            .callback(selector: "sceneDidBecomeActive:", state: .active, args: [:], duration: 86_400.5),
            .notification(
                name: "UIApplicationDidBecomeActiveNotification", userInfo: [:], queuedAt: nil, coalesced: nil),
            .notification(name: "n", userInfo: args, queuedAt: 1e-9, coalesced: 3),
            .state(from: .notRunning, to: .background),
            .termination(reason: .watchdog, notified: false, foreground: false),
            .termination(reason: .exited, notified: true, foreground: nil),
            .termination(reason: .memoryPressure, notified: false, foreground: true),
            .runLoop(event: .touch, delivered: false, coalesced: nil),
            .runLoop(event: .redraw, delivered: true, coalesced: Int.max >> 12),
            .device(event: "lock", detail: [:]),
            .device(event: "change", detail: ["kind": "batteryLevel", "value": 0.25]),
            .backgroundTask(event: .began, task: 1, name: nil),
            .backgroundTask(event: .refused, task: 0, name: "upload é"),
            .sceneState(from: .unattached, to: .foregroundActive),
            .resource(resource: .bonjourService, event: .closedBySystem),
            .snapshot(visible: [], hidden: []),
            .snapshot(visible: ["password", "é"], hidden: ["card"]),
            .launchImage(image: "Default-Portrait@2x.png"),
            .wakeRefused(wake: .silentPush, reason: .silentPushBudget),
            .wakeRefused(wake: .backgroundFetch, reason: .forceQuit),
            .wakeRefused(wake: .backgroundURLSession, reason: .forceQuit),
            .transfer(event: .started, session: "com.example.bg", task: .download, name: "photo-1"),
            .transfer(event: .cancelled, session: "é", task: .upload, name: "log"),
            .termination(reason: .backgroundURLSessionExpired, notified: false, foreground: false),
            .wakeRefused(wake: .backgroundTask, reason: .forceQuit),
            .scheduledTask(
                event: .refused, identifier: "com.example.x", kind: .refresh, reason: .notPermitted, progress: nil),
            .scheduledTask(
                event: .progress, identifier: "com.example.e.1", kind: .continued, reason: nil, progress: 0.5),
        ]
        return bodies.enumerated().flatMap { index, body in
            let plain = TimelineEntry(seq: UInt64(index + 1), time: Double(index) * 0.1, app: "a", body: body)
            var scened = plain
            scened.seq = 1 << 52
            scened.time = 123_456.789_012_345
            scened.app = index.isMultiple(of: 2) ? nil : "app é"
            scened.session = "s\(index)"
            if case .callback = body { scened.sceneState = .background }
            return [plain, scened]
        }
    }()

    @Test func everyKindReadsBackAsItWasWritten() throws {
        let kinds = Set(Self.handMade.map(\.kind))
        #expect(kinds.count == 14, "a kind of entry with no case here: \(kinds.sorted())")
        for entry in Self.handMade {
            #expect(try Self.roundTrip(entry) == entry, "\(entry)")
        }
    }

    /// Entries as devices produce them: every event type, on devices from iPhone OS 3 to iOS 27.
    @Test(arguments: ["3.1", "4.0", "9.0", "13.0", "27.0"])
    func entriesDevicesProduceReadBack(_ version: String) throws {
        var configuration = DeviceConfiguration()
        configuration.iosVersion = try #require(Version(version))
        var device = try Device(id: "d", configuration: configuration)
        var app = AppConfiguration(bundleId: "com.example.a")
        app.info.backgroundModes = ["audio", "fetch", "remote-notification"]
        app.sensitiveViews = ["password"]
        _ = try device.addApp(id: "a", configuration: app)
        _ = try device.addApp(id: "b", configuration: AppConfiguration(bundleId: "com.example.b"))
        var produced: [TimelineEntry] = []
        var now = 0.0
        for _ in 0..<3 {
            for type in Event.allTypes {
                now += 1.5
                let event = try JournalRecordFormatTests.event(type)
                let target: String? = Event.deviceTypes.contains(type) ? nil : "a"
                if let outcome = try? device.apply([event], app: target, now: now) { produced += outcome.entries }
            }
        }
        #expect(produced.count > 50)
        for entry in produced {
            #expect(try Self.roundTrip(entry) == entry, "\(entry)")
        }
    }

    @Test func whatNoEntryLooksLikeIsNotOne() throws {
        for text in [
            #"{}"#, #"[]"#, #"{"seq":1,"time":0,"app":null,"kind":"unknown"}"#,
            #"{"seq":-1,"time":0,"app":null,"kind":"launchImage","image":"x"}"#,
            #"{"seq":1,"time":0,"app":7,"kind":"launchImage","image":"x"}"#,
            #"{"seq":1,"time":0,"app":null,"kind":"launchImage"}"#,
            #"{"seq":1,"time":0,"app":null,"kind":"launchImage","image":"x","session":null}"#,
            #"{"seq":1,"time":0,"app":null,"kind":"state","from":"active","to":"flying"}"#,
            #"{"seq":1,"time":0,"app":"a","kind":"wakeRefused","wake":"backgroundFetch","reason":"tired"}"#,
            #"{"seq":1,"time":0,"app":"a","kind":"wakeRefused","reason":"forceQuit"}"#,
            #"{"seq":1,"time":0,"app":"a","kind":"transfer","event":"started","task":"download","name":"n"}"#,
            #"{"seq":1,"time":0,"app":"a","kind":"transfer","event":"paused","urlSession":"s","task":"upload","name":"n"}"#,
            #"{"seq":1,"time":0,"app":null,"kind":"backgroundTask","event":"began","task":1.5,"name":null}"#,
        ] {
            #expect(EntryDecoder.entry(try JSONParser.parse(text)) == nil, "\(text)")
        }
    }
}
