package import Dispatch
import Foundation
package import LifecycleCore
import LifecyclePersistence
package import LifecycleStore
package import Locking
import Synchronization

/// One simulated device, hosted: its state lives on its own serial queue (its main run loop); readers
/// see what the queue last made durable, through a lock of this device only.
///
/// Every change is handed to `queue` (never waited for), applied there, journaled, and only then
/// published and completed, so a success always describes durable state. The host knows nothing of
/// HTTP: it completes with domain results (`HostError` on failure) that `API/` turns into answers.
package final class DeviceHost: @unchecked Sendable {
    /// Where the device is in its life. Writes apply only to a live device; once deleted (or reset away)
    /// it never journals again, so a write racing with the deletion either lands before it or fails.
    package enum Life {
        /// Registered, its creation not yet journaled.
        case unborn
        case live
        case deleted
    }

    package let id: String
    /// The journal stream of the device (`Namespace.stream(ofDevice:)`).
    package let stream: String
    package let queue: DispatchQueue
    /// Snapshots being encoded and handed to the journal (`saveSnapshot`); a drain waits for them.
    package let snapshotSaves = DispatchGroup()
    /// What every device queue runs on: Dispatch's global queue, whose threads are about as many as the
    /// cores. A queue of its own (the default target is the overcommitting global queue) gets a thread
    /// whenever it has work, so a busy daemon ran a thread per active device and switched between them
    /// on every event. Nothing run on a device queue waits for another one, so this cannot starve; an input
    /// that may wait for a live delegate's answer over HTTP runs on a thread of its own (`onThreadOfItsOwn`).
    package static let workers = DispatchQueue.global()
    /// Where snapshots are encoded, one at a time: devices tend to reach their snapshot together (as many
    /// entries since the last), and encoding them all at once took every core from the requests for as long.
    static let snapshotEncoding = DispatchQueue(label: "lifecycled.snapshot-encoding", qos: .utility)
    /// The device's snapshot waiting for `snapshotEncoding`, if one is (`saveSnapshot`).
    let waitingSnapshot = Protected<WaitingSnapshot?>(nil)
    /// The wall clock the device's realtime clock follows, and where it read 0 on it.
    package let anchor: WallAnchor
    /// Wall-clock seconds (since 1970) at which the device's clock read 0: the anchor of a realtime clock.
    package var anchorWall: Double { anchor.wall }
    package let shared: Protected<PublishedDevice>
    package let journal: any Journal
    package let settings: HostSettings

    // Confined to `queue` (or to the recovering thread before the host is reachable).
    package var life: Life
    package var device: Device
    package var idempotency = IdempotencyCache() {
        didSet { answerBytes.store(idempotency.bytes, ordering: .relaxed) }
    }
    /// What `idempotency` takes, readable off the queue (`held`).
    let answerBytes = Atomic<Int>(0)
    /// What the device's description and its apps' take (`describedBytes`), readable off the queue.
    let stateBytes = Atomic<Int>(0)
    var appendsIssued: UInt64 = 0
    var entriesSinceSnapshot = 0
    /// Bytes the device's recording may still take (`InputRecording`); nil: it records nothing (more).
    var recordingLeft: Int?
    var journalBytesSinceSnapshot = 0
    /// The timer of the core's next deadline, on a realtime clock (`rescheduleTimer`).
    var timer: (any HostTimer)?
    /// The live delegates attached to apps of the device, by app (`attachDelegate`), and the callbacks of the
    /// others, answered over HTTP; never journaled.
    let liveDelegates: LiveDelegateRouter
    /// The callback of a live app waiting for its answer over HTTP, if any (LIFECYCLE §13).
    package var pendingCallbacks: PendingCallbacks { liveDelegates.overHTTP }

    /// A device about to be created (`create` journals it), or one rebuilt from its journaled creation.
    /// `clock`: the wall clock a realtime device clock follows, `anchorWall` where it read 0 on it.
    package init(
        device: Device, stream: String? = nil, clock: any HostClock, anchorWall: Double, journal: any Journal,
        history: HistoryBounds, settings: HostSettings, journaled: Bool = false
    ) {
        id = device.id
        self.stream = stream ?? device.id
        self.device = device
        anchor = WallAnchor(clock: clock, wall: anchorWall)
        self.journal = journal
        self.settings = settings
        life = journaled ? .live : .unborn
        queue = DispatchQueue(label: "lifecycled.device", target: Self.workers)
        recordingLeft = history.recordingBytes > 0 ? history.recordingBytes : nil
        shared = Protected(
            PublishedDevice(
                device: device, historyLimit: history.entries, historyBytes: history.bytes, anchor: anchor,
                recording: InputRecording(complete: recordingLeft != nil)))
        liveDelegates = LiveDelegateRouter(
            overHTTP: PendingCallbacks(clock: clock, published: shared), timeout: settings.liveAnswerTimeout)
        stateBytes.store(Self.describedBytes(of: device), ordering: .relaxed)
        startSnapshotCycle()
    }

    /// A device restored from its snapshot; the journal records after it are replayed next.
    package init(
        snapshot: DeviceSnapshot, stream: String? = nil, clock: any HostClock, journal: any Journal,
        history: HistoryBounds, settings: HostSettings
    ) {
        id = snapshot.device.id
        self.stream = stream ?? snapshot.device.id
        device = snapshot.device
        anchor = WallAnchor(clock: clock, wall: snapshot.anchorWall)
        self.journal = journal
        self.settings = settings
        life = .live
        queue = DispatchQueue(label: "lifecycled.device", target: Self.workers)
        // A snapshot saved without the device's inputs, or with more than the budget now allows, leaves it
        // unrecorded: an export could not replay it from its creation.
        var recording = snapshot.recording ?? InputRecording(complete: false)
        if !recording.complete || recording.bytes > history.recordingBytes { recording.stop() }
        recordingLeft = recording.complete ? history.recordingBytes - recording.bytes : nil
        var published = PublishedDevice(
            device: snapshot.device, historyLimit: history.entries, historyBytes: history.bytes,
            anchor: anchor, recording: recording)
        published.restore(deviceTimeline: snapshot.deviceTimeline, appTimelines: snapshot.appTimelines)
        shared = Protected(published)
        liveDelegates = LiveDelegateRouter(
            overHTTP: PendingCallbacks(clock: clock, published: shared), timeout: settings.liveAnswerTimeout)
        for (key, answer) in snapshot.idempotency { idempotency.remember(key, answer) }
        stateBytes.store(Self.describedBytes(of: snapshot.device), ordering: .relaxed)
        startSnapshotCycle()
    }

    deinit {
        settings.memoryBudget?.forget(ObjectIdentifier(self))
    }

    /// What a device holds that nothing evicts, counted by the daemon's `MemoryBudget`: a fixed cost per
    /// device and per app (chosen above the 1,336 bytes an idle app measured at 20,000 apps, which also covers
    /// its scene sessions and queued notifications, themselves bounded in number), and their descriptions as
    /// their journal records hold them.
    package static let deviceCost = 4096
    package static let appCost = 2048

    package static func describedBytes(of configuration: DeviceConfiguration) -> Int {
        deviceCost + JournaledInput.device(configuration: configuration, wall: 0).bytes.count
    }

    package static func describedBytes(ofApp id: String, _ configuration: AppConfiguration) -> Int {
        appCost + JournaledInput.app(id: id, configuration: configuration).bytes.count
    }

    package static func describedBytes(of device: Device) -> Int {
        device.appsInOrder.reduce(describedBytes(of: device.configuration)) { sum, app in
            sum + describedBytes(ofApp: app.id, app.configuration)
        }
    }

    /// What the device holds now, in the budget's three parts.
    package var held: MemoryBudget.Held {
        MemoryBudget.Held(
            evictable: shared.withLock { $0.heldBytes }, answers: answerBytes.load(ordering: .relaxed),
            state: stateBytes.load(ordering: .relaxed))
    }

    /// Tells the daemon's memory budget what the device holds now.
    package func reportHeld() {
        settings.memoryBudget?.holds(self, namespace: settings.namespace, held)
    }

    /// Gives up about `bytes` for the daemon's budget: its oldest entries, else its oldest remembered answers,
    /// else its recording. False when it had nothing left to give.
    func giveUp(bytes: Int) -> Bool {
        let traced = settings.trace == nil ? 0 : SlowTrace.now()
        defer {
            settings.trace?.note(
                "budget trim", from: traced, to: SlowTrace.now(), detail: ["device": id, "bytes": String(bytes)])
        }
        let (evicted, dropped) = shared.withLock { shared -> (Int, Bool) in
            let evicted = shared.evict(bytes: bytes)
            let dropped = evicted == 0 && answerBytes.load(ordering: .relaxed) == 0 && shared.recording.bytes > 0
            if dropped { shared.recording.stop() }
            return (evicted, dropped)
        }
        var gave = evicted > 0 || dropped
        if evicted > 0 { settings.observer.evicted(entries: evicted) }
        if dropped { stopRecording() }
        if !gave, answerBytes.load(ordering: .relaxed) > 0 {
            // The answers live on the queue; nothing run there waits for the budget.
            gave = queue.sync { idempotency.dropOldest(bytes: bytes) } > 0
        }
        if gave { reportHeld() }
        return gave
    }

    /// The device's clock now: the wall clock times `speed` for a realtime clock, its own time otherwise.
    func clockNow() -> Double { anchor.time(of: device) }
}

/// Why a host did not make a change; `API/` alone says how each is answered.
package enum HostError: Error {
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

/// How much history one device keeps: entries per timeline, bytes for all its timelines together, and
/// bytes of the inputs it records for an export (`InputRecording`; 0: none).
package struct HistoryBounds: Sendable {
    package var entries: Int
    package var bytes: Int
    package var recordingBytes: Int

    package init(entries: Int, bytes: Int, recordingBytes: Int = 0) {
        self.entries = entries
        self.bytes = bytes
        self.recordingBytes = recordingBytes
    }
}
