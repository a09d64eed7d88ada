import Foundation
import LifecycleCore
@testable import LifecycleHosting
import LifecyclePersistence
import LifecycleStore
import Locking
import Testing

@testable import LifecycleServer

/// Live delegates' answers in the journal (LIFECYCLE §13): an input they answered is journaled with its
/// answers, reads back, and replays to the same device with no live code.
@Suite struct LiveAnswersJournalTests {
    static func liveDevice() throws -> Device {
        var device = try Device(id: "d", configuration: DeviceConfiguration())
        var app = AppConfiguration(bundleId: "com.example.live", iosVersion: Version("7.0"))
        app.delegate.live = true
        try device.addApp(id: "a", configuration: app)
        return device
    }

    /// A live delegate that takes a second to enter the background, beginning a task there.
    final class Saver: CallbackAnswering {
        func answer(_ callback: PendingCallback) -> CallbackAnswer {
            guard callback.selector == Selector.didEnterBackground else { return CallbackAnswer(returns: true) }
            return CallbackAnswer(duration: 1, actions: [.beginBackgroundTask(name: "save", duration: 3)])
        }
    }

    /// A live delegate that begins a task it never ends itself as it enters the background.
    final class Keeper: CallbackAnswering {
        func answer(_ callback: PendingCallback) -> CallbackAnswer {
            guard callback.selector == Selector.didEnterBackground else { return CallbackAnswer(returns: true) }
            return CallbackAnswer(actions: [.beginBackgroundTask(name: "sync", duration: nil)])
        }
    }

    @Test func anAnsweredInputIsJournaledWithItsAnswersAndReplaysWithoutTheDelegate() throws {
        var live = try Self.liveDevice()
        let events: [Event] = [.launch(background: false, url: nil, sourceApplication: nil), .homeButton]
        let outcome = try live.apply(events, app: "a", now: 0, answering: Saver())
        #expect(!outcome.answers.isEmpty)
        let input = JournaledInput.events(app: "a", now: 0, events: events, key: nil, fingerprint: nil)
            .withAnswers(outcome.answers)
        guard case .answered(_, let answers) = input else {
            Issue.record("an answered input is journaled with its answers")
            return
        }
        #expect(answers == outcome.answers)
        let read = try JournaledInput(bytes: input.bytes)
        #expect(read == input)
        // An input no live delegate answered is journaled as it always was.
        let plain = JournaledInput.events(app: "a", now: 0, events: events, key: nil, fingerprint: nil)
        #expect(plain.withAnswers([]) == plain)

        let settings = HostSettings(rendering: WireRendering(), observer: StoreFailures(count: Protected(0)))
        let host = DeviceHost(
            device: try Self.liveDevice(), clock: SystemHostClock(), anchorWall: 0, journal: MemoryJournal(),
            history: HistoryBounds(entries: 100, bytes: 32 << 20), settings: settings, journaled: true)
        try host.replay(read)
        #expect(host.device == live)
        #expect(host.device.app("a")?.backgroundTasks.map(\.name) == ["save"])
    }

    /// A reader's projection of a realtime clock asks no live delegate (none can be asked off the device's
    /// queue): where a deadline would, the reader sees the device as applied, not a hang the device never had.
    @Test func aReadersProjectionOfARealtimeClockNeverHangsALiveDelegate() throws {
        var configuration = DeviceConfiguration()
        configuration.clockMode = .realtime
        var device = try Device(id: "d", configuration: configuration)
        var app = AppConfiguration(bundleId: "com.example.live", iosVersion: Version("7.0"))
        app.delegate.live = true
        try device.addApp(id: "a", configuration: app)
        let keeper = Keeper()
        _ = try device.apply(
            [.launch(background: false, url: nil, sourceApplication: nil)], app: "a", now: 0, answering: keeper)
        _ = try device.apply([.homeButton], app: nil, now: 0, answering: keeper)
        #expect(device.app("a")?.state == .background)
        let clock = ManualHostClock(now: 1_000)
        // The background time is long past by the wall clock: the task's expiration handler is due.
        let published = PublishedDevice(
            device: device, historyLimit: 100, historyBytes: 1 << 20, anchor: WallAnchor(clock: clock, wall: 0),
            recording: InputRecording())
        #expect(published.current.app("a")?.termination == nil)
        #expect(published.current.app("a")?.state.isRunning == true)
    }
}
