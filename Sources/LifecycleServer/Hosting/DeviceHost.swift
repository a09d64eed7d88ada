import Dispatch
import Foundation
import HTTPServer
import LifecycleCore
import LifecycleStore
import Synchronization

/// One simulated device, hosted: its state lives on its own serial queue (its main run loop); readers
/// see what the queue last made durable, through a lock of this device only.
///
/// Every change is applied on `queue`, journaled, and only then published and answered, so a 2xx
/// answer always describes durable state.
final class DeviceHost: @unchecked Sendable {
    let id: String
    let queue: DispatchQueue
    /// Wall-clock seconds (since 1970) at which the device's clock read 0: the anchor of a realtime clock.
    let anchorWall: Double
    let shared: Mutex<Published>
    private let journal: any Journal
    private let hooks: HostHooks

    // Confined to `queue`.
    private var device: Device
    private var idempotency = IdempotencyCache()
    private var appendsIssued: UInt64 = 0
    private var entriesSinceSnapshot = 0
    private var timer: (any DispatchSourceTimer)?

    init(device: Device, anchorWall: Double, journal: any Journal, history: HistoryBounds, hooks: HostHooks) {
        id = device.id
        self.device = device
        self.anchorWall = anchorWall
        self.journal = journal
        self.hooks = hooks
        queue = DispatchQueue(label: "lifecycled.device")
        shared = Mutex(
            Published(
                device: device, historyLimit: history.entries, historyBytes: history.bytes, anchorWall: anchorWall))
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    /// A device restored from its snapshot; the journal records after it are replayed next.
    init(snapshot: DeviceSnapshot, journal: any Journal, history: HistoryBounds, hooks: HostHooks) {
        id = snapshot.device.id
        device = snapshot.device
        anchorWall = snapshot.anchorWall
        self.journal = journal
        self.hooks = hooks
        queue = DispatchQueue(label: "lifecycled.device")
        var published = Published(
            device: snapshot.device, historyLimit: history.entries, historyBytes: history.bytes,
            anchorWall: snapshot.anchorWall)
        published.restore(deviceTimeline: snapshot.deviceTimeline, appTimelines: snapshot.appTimelines)
        shared = Mutex(published)
        for (key, answer) in snapshot.idempotency { idempotency.remember(key, answer) }
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Runs `work` on the device's queue and waits for it: changes take microseconds, and answering on
    /// the calling thread spares a park and resume when the journal completes at once. Re-entrant.
    private func onQueue(_ work: () -> Void) {
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) {
            work()
        } else {
            queue.sync(execute: work)
        }
    }

    /// The device's clock now: the wall clock times `speed` for a realtime clock, its own time otherwise.
    private func clockNow() -> Double {
        guard device.configuration.clockMode == .realtime else { return device.time }
        return (Date().timeIntervalSince1970 - anchorWall) * device.configuration.clockSpeed
    }

    // MARK: Changes (on `queue`)

    /// Journals the device's creation.
    func create(config: JSONValue, completion: @escaping @Sendable (Result<Void, APIError>) -> Void) {
        onQueue { commit(.device(config: config, wall: anchorWall), completion: completion) }
    }

    func addApp(
        id appID: String, configuration: AppConfiguration, config: JSONValue,
        completion: @escaping @Sendable (Result<[UInt8], APIError>) -> Void
    ) {
        onQueue {
            do throws(Rejection) {
                try device.addApp(id: appID, configuration: configuration)
            } catch {
                completion(.failure(APIError(error)))
                return
            }
            let body = appJSON(appID)
            commit(.app(id: appID, config: config)) { result in completion(result.map { body }) }
        }
    }

    func removeApp(id appID: String, completion: @escaping @Sendable (Result<Void, APIError>) -> Void) {
        onQueue {
            do throws(Rejection) {
                try device.removeApp(id: appID)
            } catch {
                completion(.failure(APIError(error)))
                return
            }
            commit(.deleteApp(id: appID), removedApp: appID, completion: completion)
            rescheduleTimer()
        }
    }

    /// A request to apply events, as it arrived.
    struct EventsRequest: Sendable {
        var events: [Event]
        var json: JSONValue
        var app: String?
        var idempotencyKey: String?
        var path: String
    }

    func applyEvents(_ request: EventsRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        onQueue {
            var fingerprint: UInt64?
            var scopedKey: String?
            if let key = request.idempotencyKey {
                let print = FNV1a.hash(JSONWriter.encode(request.json))
                let scoped = IdempotencyCache.scoped(key, path: request.path)
                if let first = idempotency[scoped] {
                    guard first.fingerprint == print else {
                        completion(APIError.idempotencyKeyReused().response)
                        return
                    }
                    var response = first.response
                    response.headers.append(("Idempotent-Replayed", "true"))
                    let replay = response
                    afterDurable { completion(replay) }
                    return
                }
                fingerprint = print
                scopedKey = scoped
            }
            let now = clockNow()
            let outcome: Outcome
            do throws(Rejection) {
                outcome = try device.apply(request.events, app: request.app, now: now)
            } catch {
                completion(APIError(error).response)
                return
            }
            let stored = outcome.entries.map(StoredEntry.init)
            let response = eventsResponse(outcome, stored: stored, app: request.app)
            if let scopedKey, let fingerprint {
                idempotency.remember(scopedKey, .init(fingerprint: fingerprint, response: response))
            }
            let entry = JournalEntry.events(
                app: request.app, now: now, events: request.json, key: scopedKey, fingerprint: fingerprint)
            commit(entry, stored: stored, apps: outcome.entries.map(\.app)) { result in
                switch result {
                case .success: completion(response)
                case .failure(let error): completion(error.response)
                }
            }
            hooks.eventsApplied(request.events)
            rescheduleTimer()
        }
    }

    /// Deletes the device: journaled, then every reader and waiter hears it is gone.
    func delete(completion: @escaping @Sendable (Result<Void, APIError>) -> Void) {
        queue.async { [self] in
            timer?.cancel()
            timer = nil
            journal.deleteStream(id) { [self] result in
                let waiters = shared.withLock { shared -> [Waiter] in
                    shared.gone = true
                    return shared.takeWaiters()
                }
                waiters.forEach { $0.fire() }
                completion(result.mapError { .internalError("the store failed: \($0)") })
            }
        }
    }

    /// Marks the device gone without journaling (a reset journals once for all devices).
    func discard() {
        queue.async { [self] in
            timer?.cancel()
            timer = nil
        }
        let waiters = shared.withLock { shared -> [Waiter] in
            shared.gone = true
            return shared.takeWaiters()
        }
        waiters.forEach { $0.fire() }
    }

    // MARK: Journal and publication

    /// Journals `entry`; once durable, publishes the device as it is now with `entries`, then completes.
    private func commit(
        _ entry: JournalEntry, stored: [StoredEntry] = [], apps: [String?] = [], removedApp: String? = nil,
        completion: @escaping @Sendable (Result<Void, APIError>) -> Void
    ) {
        let changedApps = device.takeChangedApps()
        let snapshot = device.changes(of: changedApps)
        appendsIssued += 1
        // Replaying a record costs about what it produced. Once a device has produced `snapshotEvery` entries
        // since its last snapshot, and at least as many as a snapshot would hold, the state after this
        // record is saved: start-up work stays proportional to the state, not to the journal's length.
        entriesSinceSnapshot += stored.count + 1
        var answers: [(key: String, answer: IdempotencyCache.Answer)]?
        if entriesSinceSnapshot >= hooks.snapshotEvery, journal.keepsRecords,
            entriesSinceSnapshot >= shared.withLock({ $0.appEntriesRetained })
        {
            entriesSinceSnapshot = 0
            answers = idempotency.ordered
        }
        // A journal that keeps nothing is not worth encoding a record for.
        let record = journal.keepsRecords ? entry.bytes : []
        journal.append(stream: id, record: record) { [self, answers] result in
            switch result {
            case .success(let seq):
                let (waiters, barriers, evicted, published) = shared.withLock { shared in
                    let evicted = shared.install(snapshot, changedApps: changedApps, entries: stored, apps: apps)
                    if let removedApp { shared.removeTimeline(of: removedApp) }
                    shared.durableAppends += 1
                    let reached = shared.durableAppends
                    let due = shared.barriers.filter { $0.target <= reached }.map(\.action)
                    shared.barriers.removeAll { $0.target <= reached }
                    // A removed app's long polls wake to answer 404; the others look again and park anew.
                    let wake = !stored.isEmpty || removedApp != nil
                    return (wake ? shared.takeWaiters() : [], due, evicted, answers == nil ? nil : shared)
                }
                if evicted > 0 { hooks.entriesEvicted(evicted) }
                if let answers, let published { saveSnapshot(published, answers: answers, upTo: seq) }
                completion(.success(()))
                waiters.forEach { $0.fire() }
                barriers.forEach { $0() }
            case .failure(let error):
                hooks.storeFailed(error)
                completion(.failure(.notReady("the store could not make the change durable: \(error)")))
            }
        }
    }

    /// Encodes and saves a snapshot off the store's thread; a failure only means a longer replay next start.
    private func saveSnapshot(
        _ published: Published, answers: [(key: String, answer: IdempotencyCache.Answer)], upTo seq: UInt64
    ) {
        DispatchQueue.global(qos: .utility).async { [self] in
            let snapshot = DeviceSnapshot(
                anchorWall: anchorWall, device: published.device, deviceTimeline: published.deviceTimeline,
                appTimelines: published.appTimelines, idempotency: answers)
            guard let bytes = try? snapshot.encoded() else { return }
            journal.saveSnapshot(stream: id, upTo: seq, state: bytes, durable: nil)
        }
    }

    /// Runs `action` once every journal append issued so far is durable (answers replayed from the cache).
    private func afterDurable(_ action: @escaping @Sendable () -> Void) {
        let target = appendsIssued
        let now = shared.withLock { shared -> Bool in
            if shared.durableAppends >= target { return true }
            shared.barriers.append((target, action))
            return false
        }
        if now { action() }
    }

    // MARK: Realtime clock

    /// Arms the timer for the core's next deadline on a realtime clock.
    private func rescheduleTimer() {
        guard device.configuration.clockMode == .realtime, let deadline = device.nextDeadline else {
            timer?.cancel()
            timer = nil
            return
        }
        let wall = anchorWall + deadline / device.configuration.clockSpeed
        let delay = max(0, wall - Date().timeIntervalSince1970)
        if timer == nil {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { [weak self] in self?.clockFired() }
            source.resume()
            timer = source
        }
        timer?.schedule(deadline: .now() + delay, leeway: .milliseconds(1))
    }

    private func clockFired() {
        let now = clockNow()
        let outcome = device.advance(to: now)
        if !outcome.entries.isEmpty {
            commit(.advance(now: now), stored: outcome.entries.map(StoredEntry.init), apps: outcome.entries.map(\.app))
            {
                _ in
            }
        }
        rescheduleTimer()
    }

    /// Starts the realtime clock after recovery: deadlines that passed while the daemon was down fire in
    /// order, before the daemon answers anything. Returns once their journal records are accepted.
    func resumeClock() {
        onQueue {
            if device.configuration.clockMode == .realtime { clockFired() }
        }
    }

    // MARK: Recovery (on the recovering thread, before the host is reachable)

    /// Re-applies one journaled input: the same inputs give the same state, entries and answers.
    func replay(_ entry: JournalEntry) throws {
        var entries: [TimelineEntry] = []
        var removed: String?
        switch entry {
        case .device:
            break
        case .app(let appID, let config):
            let request = try AppRequest(config, replaying: true)
            try device.addApp(id: appID, configuration: request.configuration)
        case .deleteApp(let appID):
            try device.removeApp(id: appID)
            removed = appID
        case .events(let app, let now, let json, let key, let fingerprint):
            let events = try EventDecoder.decode(json, deviceOnly: app == nil, replaying: true)
            let outcome = try device.apply(events, app: app, now: now)
            entries = outcome.entries
            if let key, let fingerprint {
                let response = eventsResponse(outcome, stored: entries.map(StoredEntry.init), app: app)
                idempotency.remember(key, .init(fingerprint: fingerprint, response: response))
            }
        case .advance(let now):
            entries = device.advance(to: now).entries
        }
        let stored = entries.map(StoredEntry.init)
        let changedApps = device.takeChangedApps()
        let snapshot = device.changes(of: changedApps)
        shared.withLock { shared in
            _ = shared.install(snapshot, changedApps: changedApps, entries: stored, apps: entries.map(\.app))
            if let removed { shared.removeTimeline(of: removed) }
        }
    }

    // MARK: Answers

    private func appJSON(_ appID: String) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 768)
        SnapshotEncoder.app(device.app(appID)!, on: device, into: &writer)
        return writer.bytes
    }

    private func eventsResponse(_ outcome: Outcome, stored: [StoredEntry], app: String?) -> HTTPResponse {
        var w = JSONWriter(reservingCapacity: 1024 + stored.count * 160)
        w.beginObject()
        if let app, let instance = device.app(app) {
            w.field("app")
            SnapshotEncoder.app(instance, on: device, into: &w)
        } else {
            w.field("device")
            SnapshotEncoder.device(device, into: &w)
        }
        w.field("entries")
        w.beginArray()
        for entry in stored { w.raw(entry.json) }
        w.endArray()
        w.field("changed")
        w.bool(outcome.changed)
        w.endObject()
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: w.bytes)
    }
}

/// What a host tells the service about: metrics and store failures.
struct HostHooks: Sendable {
    var eventsApplied: @Sendable ([Event]) -> Void = { _ in }
    var entriesEvicted: @Sendable (Int) -> Void = { _ in }
    var storeFailed: @Sendable (StoreError) -> Void = { _ in }
    /// Timeline entries a device produces between two snapshots (at least).
    var snapshotEvery = 10_000
}
