import Dispatch
package import LifecycleCore
import LifecycleJSON
import LifecyclePersistence
import LifecycleStore
import Locking
import Synchronization

/// Changes, handed to the device's queue; each completes once durable or with why not.
extension DeviceHost {
    /// Journals the device's creation as the first record of its stream.
    package func create(completion: @escaping @Sendable (Result<Void, HostError>) -> Void) {
        queue.async { [self] in
            guard life == .unborn else { return completion(.failure(.deviceGone(id))) }
            life = .live
            commit(
                .device(configuration: device.configuration, wall: anchorWall), startsStream: true,
                completion: completion)
        }
    }

    package func addApp(
        id appID: String, configuration: AppConfiguration,
        completion: @escaping @Sendable (Result<Device, HostError>) -> Void
    ) {
        queue.async { [self] in
            guard life == .live else { return completion(.failure(.deviceGone(id))) }
            do throws(Rejection) {
                try device.addApp(id: appID, configuration: configuration)
            } catch {
                return completion(.failure(.rejected(error)))
            }
            stateBytes.add(Self.describedBytes(ofApp: appID, configuration), ordering: .relaxed)
            liveDelegates.liveApps = nil
            let added = device
            commit(.app(id: appID, configuration: configuration)) { result in completion(result.map { added }) }
        }
    }

    package func removeApp(id appID: String, completion: @escaping @Sendable (Result<Void, HostError>) -> Void) {
        // A callback of the app waiting for its answer over HTTP hangs now, not at its deadline: the deletion
        // applies once the input that asked it is journaled (LIFECYCLE §13).
        pendingCallbacks.abandon(app: appID, deleting: true)
        queue.async { [self] in
            defer { pendingCallbacks.readmit(appID) }
            guard life == .live else { return completion(.failure(.deviceGone(id))) }
            let described = device.app(appID).map { Self.describedBytes(ofApp: appID, $0.configuration) } ?? 0
            do throws(Rejection) {
                try device.removeApp(id: appID)
            } catch {
                return completion(.failure(.rejected(error)))
            }
            stateBytes.subtract(described, ordering: .relaxed)
            liveDelegates.delegates[appID] = nil
            liveDelegates.liveApps = nil
            rescheduleTimer()
            commit(.deleteApp(id: appID), removedApp: appID, completion: completion)
        }
    }

    /// Events to apply to the device (`app` nil) or to one of its apps.
    package struct EventsRequest: Sendable {
        package var events: [Event]
        /// The body as posted: its fingerprint tells a retry from another request with the same key.
        package var json: JSONValue
        package var app: String?
        package var idempotencyKey: String?
        /// A live delegate's answers given with the events (a recording replayed, LIFECYCLE §13): the callbacks
        /// are answered from them, in order, and not asked of the app's delegate; nil: asked.
        package var answers: [CallbackAnswer]?

        package init(
            events: [Event], json: JSONValue, app: String?, idempotencyKey: String? = nil,
            answers: [CallbackAnswer]? = nil
        ) {
            self.events = events
            self.json = json
            self.app = app
            self.idempotencyKey = idempotencyKey
            self.answers = answers
        }
    }

    /// The answer to applied events: the body, and whether it is the first answer replayed.
    package struct EventsAnswer: Sendable {
        package var body: [UInt8]
        package var replayed: Bool
    }

    package func applyEvents(
        _ request: EventsRequest, completion: @escaping @Sendable (Result<EventsAnswer, HostError>) -> Void
    ) {
        let arrived = settings.trace == nil ? 0 : SlowTrace.now()
        queue.async { [self] in
            // A callback this input asks may wait for its answer over HTTP: the input goes on a thread of its own
            // (the device's queue held), so that the wait holds no worker other devices run on.
            if liveDelegates.waitsOverHTTP(on: device) {
                return onThreadOfItsOwn { self.applyEventsNow(request, arrived: arrived, completion: completion) }
            }
            applyEventsNow(request, arrived: arrived, completion: completion)
        }
    }

    /// Applies the events, on the device's queue (or on a thread of its own, the queue held).
    private func applyEventsNow(
        _ request: EventsRequest, arrived: UInt64,
        completion: @escaping @Sendable (Result<EventsAnswer, HostError>) -> Void
    ) {
        let trace = settings.trace
        guard life == .live else { return completion(.failure(.deviceGone(id))) }
        let started = trace == nil ? 0 : SlowTrace.now()
        var fingerprint: UInt64?
        var scopedKey: IdempotencyKey?
        if let key = request.idempotencyKey {
            let print = FNV1a.hash(JSONWriter.encode(request.json))
            let scoped = IdempotencyKey(app: request.app, key: key)
            if let first = idempotency[scoped] {
                guard first.fingerprint == print else { return completion(.failure(.idempotencyKeyReused)) }
                let replay = EventsAnswer(body: first.body, replayed: true)
                afterDurable { result in completion(result.map { replay }) }
                return
            }
            fingerprint = print
            scopedKey = scoped
        }
        let now = clockNow()
        let outcome: Outcome
        do throws(Rejection) {
            let answering = request.answers.map { RecordedAnswers($0) } ?? liveAnswering
            outcome = try device.apply(request.events, app: request.app, now: now, answering: answering)
        } catch {
            return completion(.failure(.rejected(error)))
        }
        // Where the entries are in the answer is noted only when a reader follows the device now (one that
        // comes later renders them itself): most changes are followed by nobody.
        let followed = !outcome.entries.isEmpty && shared.withLock { $0.isFollowed }
        let rendered = settings.rendering.answer(
            to: AppliedEvents(device: device, app: request.app, outcome: outcome), notingEntries: followed)
        let body = rendered.body
        // Remembered at once, so a retry racing with this request waits for its durability rather than
        // applying the events twice; forgotten again if the record never becomes durable.
        if let scopedKey, let fingerprint {
            idempotency.remember(scopedKey, .init(fingerprint: fingerprint, body: body))
        }
        let entry = JournaledInput.events(
            app: request.app, now: now, events: request.events, key: scopedKey?.key, fingerprint: fingerprint
        ).withAnswers(outcome.answers)
        let served = followed ? ServedEntries(rendered, of: outcome.entries) : nil
        // Armed before the change is journaled: by the time it is answered, the timer of its deadline is set
        // (it fires on this queue, after this block, either way).
        rescheduleTimer()
        let applied = trace == nil ? 0 : SlowTrace.now()
        commit(entry, stored: RetainedEntry.retaining(outcome.entries), served: served) {
            [self, scopedKey] result in
            if case .failure = result, let scopedKey { queue.async { self.idempotency.forget(scopedKey) } }
            if let trace {
                let durable = SlowTrace.now()
                trace.note(
                    "event", from: arrived, to: durable,
                    phases: [
                        "queued": started - arrived, "apply": applied - started, "durable": durable - applied,
                    ],
                    detail: ["device": id, "events": "\(request.events.count)"])
            }
            completion(result.map { EventsAnswer(body: body, replayed: false) })
        }
        settings.observer.applied(request.events)
    }

    /// Deletes the device: no change is applied or journaled after this runs on the queue. `releaseApps`
    /// gets, on the queue, every app the device holds; `completion` runs once the deletion is durable,
    /// after every reader and waiter has heard that the device is gone.
    package func delete(
        releaseApps: @escaping @Sendable ([String]) -> Void,
        completion: @escaping @Sendable (Result<Void, HostError>) -> Void
    ) {
        // Its apps' callbacks waiting for answers over HTTP hang now: the input that asked is journaled first.
        pendingCallbacks.abandon(app: nil, deleting: true)
        queue.async { [self] in
            let wasJournaled = life == .live
            guard life != .deleted else { return completion(.failure(.deviceGone(id))) }
            stopLiving()
            let apps = device.appOrder
            releaseApps(apps)
            guard wasJournaled else {
                markGone()
                deleted(apps)
                return completion(.success(()))
            }
            journal.deleteStream(stream) { [self] result in
                markGone()
                deleted(apps)
                completion(result.mapError { .storeFailed($0) })
            }
        }
    }

    /// Takes the deleted device out of its namespace's index, then tells the observer.
    private func deleted(_ apps: [String]) {
        settings.stateIndex?.remove(self, apps: apps)
        settings.observer.deleted(self, apps: apps)
    }

    /// Ends the device's life without journaling (a reset journals once for every device): runs `done`
    /// on the queue with the apps it held, after which nothing of it is journaled.
    package func retire(_ done: @escaping @Sendable ([String]) -> Void) {
        pendingCallbacks.abandon(app: nil, deleting: true)
        queue.async { [self] in
            stopLiving()
            done(device.appOrder)
        }
    }

    /// Tells readers, parked polls and watchers that the device is gone (with its namespace, if
    /// `namespace` is set).
    package func markGone(withNamespace namespace: String? = nil) {
        // What it retained no longer counts against the daemon's budget (readers may still hold it a moment).
        settings.memoryBudget?.forget(ObjectIdentifier(self))
        let (polls, watchers) = shared.withLock { shared -> ([Poll], [any TimelineWatcher]) in
            shared.gone = true
            shared.deletedNamespace = namespace
            return (shared.takeAllPolls(), shared.watchers.values.map(\.watcher))
        }
        polls.wakeElsewhere()
        watchers.wakeElsewhere()
    }

    private func stopLiving() {
        life = .deleted
        timer?.cancel()
        timer = nil
    }
}
