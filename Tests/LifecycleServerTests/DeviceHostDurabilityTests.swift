import LifecycleTesting
import Foundation
import LifecycleCore
@testable import LifecycleHosting
import LifecycleStore
import Locking
import TestSupport
import Testing

@testable import LifecycleServer

/// An answer is remembered for its `Idempotency-Key` only as long as its record may still become durable:
/// a retry waiting behind a failing append hears the failure, never hangs, and a later retry applies afresh.
@Suite struct DeviceHostDurabilityTests {
    static func host(_ journal: HeldJournal, failures: Protected<Int>) throws -> DeviceHost {
        var device = try Device(id: "d", configuration: DeviceConfiguration())
        try device.addApp(id: "a", configuration: AppConfiguration(bundleId: "com.example.a"))
        let settings = HostSettings(rendering: WireRendering(), observer: StoreFailures(count: failures))
        return DeviceHost(
            device: device, clock: SystemHostClock(), anchorWall: 0, journal: journal,
            history: HistoryBounds(entries: 100, bytes: 32 << 20), settings: settings, journaled: true)
    }

    static let launch = DeviceHost.EventsRequest(
        events: [.launch(background: false, url: nil, sourceApplication: nil)], json: ["type": "launch"], app: "a",
        idempotencyKey: "k")

    static func describe(_ result: Result<DeviceHost.EventsAnswer, HostError>) -> String {
        switch result {
        case .success(let answer): answer.replayed ? "replayed" : "applied"
        case .failure(.storeFailed): "storeFailed"
        case .failure(let error): "\(error)"
        }
    }

    @Test func aRetryWaitingBehindAFailedAppendHearsTheFailureAndALaterRetryAppliesAfresh() throws {
        let journal = HeldJournal()
        let failures = Protected(0)
        let host = try Self.host(journal, failures: failures)
        let outcomes = Protected<[String]>([])
        host.applyEvents(Self.launch) { result in outcomes.update { $0.append("first " + Self.describe(result)) } }
        host.applyEvents(Self.launch) { result in outcomes.update { $0.append("retry " + Self.describe(result)) } }
        // The retry appends nothing: it waits for the first request's record.
        #expect(eventually { journal.heldCount == 1 })
        host.queue.sync {}
        #expect(outcomes.get().isEmpty)

        journal.release(failing: .io(path: "/data/lifecycled.sqlite3", operation: "commit", message: "disk full"))
        #expect(eventually { outcomes.get().count == 2 })
        #expect(outcomes.get().sorted() == ["first storeFailed", "retry storeFailed"])
        #expect(failures.get() == 1)
        // Nothing of the failed record was published.
        #expect(host.shared.withLock { $0.device.app("a")?.state } == .notRunning)

        // The key was forgotten: once the store takes writes again, the retry applies the events.
        host.applyEvents(Self.launch) { result in outcomes.update { $0.append("later " + Self.describe(result)) } }
        #expect(eventually { journal.heldCount == 1 })
        journal.release()
        #expect(eventually { outcomes.get().count == 3 })
        #expect(outcomes.get().last == "later applied")
    }

    @Test func aRetryWaitingForAnAppendThatNeverEndsAnswersAtItsDeadline() throws {
        let journal = HeldJournal()
        var settings = HostSettings(rendering: WireRendering())
        settings.durableDeadline = 0.2
        let clock = ManualHostClock()
        let device = try Device(id: "d", configuration: DeviceConfiguration())
        let host = DeviceHost(
            device: device, clock: clock, anchorWall: clock.now, journal: journal,
            history: HistoryBounds(entries: 100, bytes: 32 << 20), settings: settings, journaled: true)
        let request = DeviceHost.EventsRequest(
            events: [.lock], json: ["type": "lock"], app: nil, idempotencyKey: "k")
        let outcomes = Protected<[String]>([])
        host.applyEvents(request) { _ in outcomes.update { $0.append("first") } }
        host.applyEvents(request) { result in
            if case .failure(.notDurableYet) = result { outcomes.update { $0.append("retry not durable yet") } }
        }
        // The retry has set its deadline once the queue has run it.
        host.queue.sync {}
        let start = clock.now
        clock.advance(to: start + 0.19)
        #expect(outcomes.get().isEmpty)
        clock.advance(to: start + 0.2)
        #expect(outcomes.get() == ["retry not durable yet"])
        journal.release()
        #expect(eventually { outcomes.get().count == 2 })
    }
}

/// Counts the store failures a host reports, and hears nothing else.
struct StoreFailures: HostObserver {
    let count: Protected<Int>
    func applied(_ events: [Event]) {}
    func evicted(entries count: Int) {}
    func storeFailed(_ error: StoreError) { count.update { $0 += 1 } }
    func changed(_ host: DeviceHost, apps: Set<String>, removedApp: String?) {}
    func deleted(_ host: DeviceHost, apps: [String]) {}
    func snapshotEncoded(nanoseconds: UInt64, bytes: Int) {}
}
