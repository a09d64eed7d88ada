import Dispatch
import LifecycleCore
package import LifecyclePersistence
import LifecycleStore
import Locking
import Synchronization

/// Journaling a change, publishing it once durable, and snapshots.
extension DeviceHost {
    /// Journals `entry` (on `queue`); once durable, publishes the device as it is now with `entries`, then
    /// completes. A record that fails is never published; a stream deleted meanwhile answers `deviceGone`.
    package func commit(
        _ entry: JournaledInput, startsStream: Bool = false, stored: [RetainedEntry] = [],
        served: ServedEntries? = nil, removedApp: String? = nil,
        completion: @escaping @Sendable (Result<Void, HostError>) -> Void
    ) {
        let changedApps = device.takeChangedApps()
        let snapshot = device.changes(of: changedApps)
        appendsIssued += 1
        // Replaying a record costs about what it produced. Once a device has produced `snapshotEvery` entries
        // since its last snapshot, and at least as many as a snapshot would hold, the state after this
        // record is saved: start-up work stays proportional to the state, not to the journal's length. So it is
        // too once its records since then pass `snapshotBytes`, whatever they produced: a request that produces
        // nothing (a payload queued for a suspended app) still costs its bytes on disk and at replay.
        entriesSinceSnapshot += stored.count + 1
        // A journal that keeps nothing is not worth encoding a record for, unless the device records it.
        let record = journal.keepsRecords || isRecording ? entry.bytes : []
        let recorded = recordingStep(record)
        journalBytesSinceSnapshot += record.count
        var answers: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)]?
        if journal.keepsRecords,
            journalBytesSinceSnapshot >= settings.snapshotBytes
                || (entriesSinceSnapshot >= settings.snapshotEvery
                    && entriesSinceSnapshot >= shared.withLock({ $0.appEntriesRetained }))
        {
            entriesSinceSnapshot = 0
            journalBytesSinceSnapshot = 0
            answers = idempotency.ordered
        }
        journal.append(stream: stream, record: record, startsStream: startsStream) { [self, answers] result in
            switch result {
            case .success(let seq):
                let (polls, watchers, barriers, evicted, published) = shared.withLock { shared in
                    let evicted = shared.install(snapshot, changedApps: changedApps, entries: stored)
                    shared.record(recorded)
                    if let removedApp { shared.removeTimeline(of: removedApp) }
                    shared.durableAppends += 1
                    let reached = shared.durableAppends
                    let due = shared.barriers.filter { $0.target <= reached }.map(\.action)
                    shared.barriers.removeAll { $0.target <= reached }
                    // Polls on the apps that got entries look again (and park again if their filter found
                    // nothing); a removed app's polls wake to answer 404. Polls on other apps sleep on.
                    let polls = shared.takePolls(for: stored, removedApp: removedApp)
                    let watchers = shared.watchers(for: stored, removedApp: removedApp)
                    // Only the latest change's, and only when readers follow it: a device nobody watches holds
                    // no answer.
                    if !stored.isEmpty {
                        shared.served = polls.isEmpty && watchers.isEmpty ? .none : served ?? .none
                    }
                    return (polls, watchers, due, evicted, answers == nil ? nil : shared)
                }
                if evicted > 0 { settings.observer.evicted(entries: evicted) }
                reportHeld()
                if let answers, let published { saveSnapshot(published, answers: answers, upTo: seq) }
                settings.stateIndex?.update(self, apps: changedApps, removedApp: removedApp)
                completion(.success(()))
                polls.wakeElsewhere()
                watchers.wakeElsewhere()
                settings.observer.changed(self, apps: changedApps, removedApp: removedApp)
                barriers.forEach { $0(.success(())) }
            case .failure(.streamDeleted):
                completion(.failure(.deviceGone(id)))
            case .failure(let error):
                // Records after a failed one never become durable: whoever waits for one hears it now.
                let barriers = shared.withLock { shared in
                    shared.storeFailed = true
                    defer { shared.barriers = [] }
                    return shared.barriers.map(\.action)
                }
                if error != .closed { settings.observer.storeFailed(error) }
                completion(.failure(.storeFailed(error)))
                barriers.forEach { $0(.failure(.storeFailed(error))) }
            }
        }
    }

    /// Starts the device's count of entries towards its next snapshot part of the way there, at a point its
    /// stream's name decides: devices that get equal traffic would otherwise reach their snapshots in the same
    /// second, a hundred encodings queued at once behind each other and taking a core from the answers for
    /// seconds. Each snapshot after it comes a whole interval after the one before, so the devices stay spread; a
    /// device still never goes further than `snapshotEvery` entries without one. The bytes of records since the
    /// last snapshot start at 0: `snapshotBytes` is what a device's records may take on disk before one, a bound
    /// an operator reads as such (records that produce no entry are the rarer case).
    func startSnapshotCycle() {
        entriesSinceSnapshot = Int(Self.snapshotPhase(of: stream) * Double(settings.snapshotEvery))
    }

    /// Where in the interval between two snapshots a stream starts, in [0, 1): the same on every run (FNV-1a of
    /// its name, its bits then mixed as MurmurHash3's finalizer does: names that differ in their last character
    /// alone, `phone-1` and `phone-2`, differed in FNV's low bits only), so a device's snapshots come at the same
    /// points each time it is driven the same way.
    static func snapshotPhase(of stream: String) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stream.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = (hash ^ hash >> 33) &* 0xff51_afd7_ed55_8ccd
        hash = (hash ^ hash >> 33) &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Double(hash >> 11) / Double(UInt64(1) << 53)
    }

    /// Encodes and saves a snapshot off the store's thread, on `snapshotEncoding`; a failure only means a
    /// longer replay next start. The journal drops it if the device was deleted meanwhile.
    ///
    /// At most one snapshot of a device waits for the encoder: a newer one takes the place of one still waiting
    /// (it covers more of the journal), so however far behind the encoder falls, a device holds one version of
    /// itself for it, and its snapshots reach the journal in order (the queue is serial).
    private func saveSnapshot(
        _ published: PublishedDevice, answers: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)],
        upTo seq: UInt64
    ) {
        let alreadyWaiting = waitingSnapshot.withLock { waiting in
            defer { waiting = WaitingSnapshot(published: published, answers: answers, seq: seq) }
            return waiting != nil
        }
        guard !alreadyWaiting else { return }
        snapshotSaves.enter()
        Self.snapshotEncoding.async { [self] in
            defer { snapshotSaves.leave() }
            guard let waiting = waitingSnapshot.withLock({ $0.take() }) else { return }
            let started = DispatchTime.now().uptimeNanoseconds
            let traced = settings.trace == nil ? 0 : SlowTrace.now()
            let published = waiting.published
            let snapshot = DeviceSnapshot(
                anchorWall: anchorWall, device: published.device, deviceTimeline: published.deviceTimeline,
                appTimelines: published.appTimelines, idempotency: waiting.answers, recording: published.recording)
            guard let bytes = try? snapshot.encoded() else { return }
            settings.observer.snapshotEncoded(
                nanoseconds: DispatchTime.now().uptimeNanoseconds - started, bytes: bytes.count)
            settings.trace?.note(
                "snapshot encode", from: traced, to: SlowTrace.now(),
                detail: ["device": id, "bytes": "\(bytes.count)"])
            journal.saveSnapshot(stream: stream, upTo: waiting.seq, state: bytes, durable: nil)
        }
    }

    /// Runs `action` once every journal append issued so far is durable (answers replayed from the cache),
    /// with a failure if one of them fails or the deadline passes first.
    func afterDurable(_ action: @escaping @Sendable (Result<Void, HostError>) -> Void) {
        let target = appendsIssued
        let once = Once(action)
        let outcome = shared.withLock { shared -> Result<Void, HostError>? in
            if shared.durableAppends >= target { return .success(()) }
            if shared.storeFailed { return .failure(.storeFailed(.closed)) }
            shared.barriers.append((target, { once.fire($0) }))
            return nil
        }
        if let outcome {
            once.fire(outcome)
            return
        }
        anchor.clock.after(settings.durableDeadline, on: .global()) { once.fire(.failure(.notDurableYet)) }
    }
}

/// A device's state as of a journal record, waiting to be encoded as its snapshot.
struct WaitingSnapshot: Sendable {
    let published: PublishedDevice
    let answers: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)]
    let seq: UInt64
}
