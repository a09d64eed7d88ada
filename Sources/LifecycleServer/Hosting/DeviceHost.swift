import Dispatch
import Foundation
import LifecycleCore
import LifecycleStore
import Synchronization

/// One simulated device, hosted: its state lives on its own serial queue (its main run loop); readers
/// see what the queue last made durable, through a lock of this device only.
///
/// Every change is handed to `queue` (never waited for), applied there, journaled, and only then
/// published and completed, so a success always describes durable state. The host knows nothing of
/// HTTP: it completes with domain results (`HostError` on failure) that `API/` turns into answers.
final class DeviceHost: @unchecked Sendable {
    /// Where the device is in its life. Writes apply only to a live device; once deleted (or reset away)
    /// it never journals again, so a write racing with the deletion either lands before it or fails.
    enum Life {
        /// Registered, its creation not yet journaled.
        case unborn
        case live
        case deleted
    }

    let id: String
    /// The journal stream of the device (`Namespace.stream(ofDevice:)`).
    let stream: String
    let queue: DispatchQueue
    /// What every device queue runs on: Dispatch's global queue, whose threads are about as many as the
    /// cores. A queue of its own (the default target is the overcommitting global queue) gets a thread
    /// whenever it has work, so a busy daemon ran a thread per active device and switched between them
    /// on every event. Nothing run on a device queue waits for another one, so this cannot starve.
    static let workers = DispatchQueue.global()
    /// Wall-clock seconds (since 1970) at which the device's clock read 0: the anchor of a realtime clock.
    let anchorWall: Double
    let shared: Protected<Published>
    let journal: any Journal
    let hooks: HostHooks

    // Confined to `queue` (or to the recovering thread before the host is reachable).
    var life: Life
    var device: Device
    var idempotency = IdempotencyCache()
    var appendsIssued: UInt64 = 0
    var entriesSinceSnapshot = 0
    var timer: (any DispatchSourceTimer)?

    /// A device about to be created (`create` journals it), or one rebuilt from its journaled creation.
    init(
        device: Device, stream: String? = nil, anchorWall: Double, journal: any Journal, history: HistoryBounds,
        hooks: HostHooks, journaled: Bool = false
    ) {
        id = device.id
        self.stream = stream ?? device.id
        self.device = device
        self.anchorWall = anchorWall
        self.journal = journal
        self.hooks = hooks
        life = journaled ? .live : .unborn
        queue = DispatchQueue(label: "lifecycled.device", target: Self.workers)
        shared = Protected(
            Published(
                device: device, historyLimit: history.entries, historyBytes: history.bytes, anchorWall: anchorWall))
    }

    /// A device restored from its snapshot; the journal records after it are replayed next.
    init(
        snapshot: DeviceSnapshot, stream: String? = nil, journal: any Journal, history: HistoryBounds, hooks: HostHooks
    ) {
        id = snapshot.device.id
        self.stream = stream ?? snapshot.device.id
        device = snapshot.device
        anchorWall = snapshot.anchorWall
        self.journal = journal
        self.hooks = hooks
        life = .live
        queue = DispatchQueue(label: "lifecycled.device", target: Self.workers)
        var published = Published(
            device: snapshot.device, historyLimit: history.entries, historyBytes: history.bytes,
            anchorWall: snapshot.anchorWall)
        published.restore(deviceTimeline: snapshot.deviceTimeline, appTimelines: snapshot.appTimelines)
        shared = Protected(published)
        for (key, answer) in snapshot.idempotency { idempotency.remember(key, answer) }
    }

    /// The device's clock now: the wall clock times `speed` for a realtime clock, its own time otherwise.
    func clockNow() -> Double {
        guard device.configuration.clockMode == .realtime else { return device.time }
        return (Date().timeIntervalSince1970 - anchorWall) * device.configuration.clockSpeed
    }
}

/// Why a host did not make a change; `API/` alone says how each is answered.
enum HostError: Error {
    /// The core refused the input; nothing changed.
    case rejected(Rejection)
    /// The device was deleted (or reset away) before the change reached it; nothing changed.
    case deviceGone(String)
    /// The `Idempotency-Key` was first used with another body.
    case idempotencyKeyReused
    /// The store could not make the change durable; nothing of it is durable or published.
    case storeFailed(StoreError)
    /// The first answer for this `Idempotency-Key` was not durable within the deadline.
    case notDurableYet
}

/// What a host tells the service about: metrics and store failures.
struct HostHooks: Sendable {
    var eventsApplied: @Sendable ([Event]) -> Void = { _ in }
    var entriesEvicted: @Sendable (Int) -> Void = { _ in }
    var storeFailed: @Sendable (StoreError) -> Void = { _ in }
    /// A change became durable and readers see it: the device, `apps` changed (or added), `removedApp` gone.
    /// Called on the store's thread; must return quickly.
    var changed: @Sendable (DeviceHost, _ apps: Set<String>, _ removedApp: String?) -> Void = { _, _, _ in }
    /// A change became durable and readers see it, before it is answered: `apps` changed (or were added),
    /// `removedApp` is gone. Called on the store's thread; must return quickly.
    var published: @Sendable (DeviceHost, _ apps: Set<String>, _ removedApp: String?) -> Void = { _, _, _ in }
    /// The device was deleted, with the apps it held (not called for a reset).
    var deleted: @Sendable (DeviceHost, _ apps: [String]) -> Void = { _, _ in }
    /// Timeline entries a device produces between two snapshots (at least).
    var snapshotEvery = 10_000
    /// How long a replayed answer waits for its first request's record to be durable.
    var durableDeadline = 30.0
}
