package import LifecycleCore
import LifecyclePersistence

/// A device as saved in the store, so start-up need not replay its whole journal: the core state, the
/// retained timelines, the remembered idempotent answers and the recorded inputs, as the host holds them. The
/// bytes are `StoredSnapshot`'s (the format and its versions); this turns timelines into its entries and back.
package struct DeviceSnapshot {
    package var anchorWall: Double
    package var device: Device
    package var deviceTimeline: EntryRing
    package var appTimelines: [String: EntryRing]
    package var idempotency: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)]
    /// The inputs that replay the device, if it kept them all.
    package var recording: InputRecording?

    package init(
        anchorWall: Double, device: Device, deviceTimeline: EntryRing, appTimelines: [String: EntryRing],
        idempotency: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)], recording: InputRecording? = nil
    ) {
        self.recording = recording
        self.anchorWall = anchorWall
        self.device = device
        self.deviceTimeline = deviceTimeline
        self.appTimelines = appTimelines
        self.idempotency = idempotency
    }

    /// The snapshot's bytes, in the current version.
    package func encoded() throws -> [UInt8] {
        func bounds(_ ring: EntryRing) -> StoredSnapshot.Timeline {
            StoredSnapshot.Timeline(evictedThrough: ring.evictedThrough, oldest: ring.oldestSeq)
        }
        // Every retained entry once (an app's entry may be in its app's ring and in the device's), oldest first.
        var retained = Array(deviceTimeline.retained)
        for ring in appTimelines.values { retained += ring.retained }
        retained.sort { $0.seq < $1.seq }
        var entries: [StoredSnapshot.Entry] = []
        entries.reserveCapacity(retained.count)
        for entry in retained where entry.seq != entries.last?.seq {
            entries.append(
                StoredSnapshot.Entry(seq: entry.seq, app: entry.app, session: entry.session, encoded: entry.encoded))
        }
        let stored = StoredSnapshot(
            anchorWall: anchorWall, device: device, deviceTimeline: bounds(deviceTimeline),
            apps: appTimelines.keys.sorted().map { ($0, bounds(appTimelines[$0]!)) }, entries: entries,
            answers: idempotency.map { key, answer in
                StoredSnapshot.Answer(
                    app: key.app, key: key.key, fingerprint: answer.fingerprint, body: answer.body)
            },
            recording: recording.flatMap { $0.complete ? $0.records : nil })
        return try stored.encoded()
    }

    /// Loads a snapshot of any version (`StoredSnapshot`) into timelines of `historyLimit` entries.
    package init(bytes: [UInt8], historyLimit: Int) throws {
        let stored = try StoredSnapshot(bytes: bytes)
        func ring(_ timeline: StoredSnapshot.Timeline) -> EntryRing {
            EntryRing(limit: historyLimit, evictedThrough: timeline.evictedThrough)
        }
        var deviceRing = ring(stored.deviceTimeline)
        let deviceOldest = stored.deviceTimeline.oldest ?? .max
        var rings = stored.apps.map { ring($0.timeline) }
        for entry in stored.entries {
            let made = try RetainedEntry(seq: entry.seq, app: entry.app, session: entry.session, encoded: entry.encoded)
            // Shared as `PublishedDevice.install` shares it: an equal entry's body, from the app's timeline.
            let shared = entry.appTimeline.map { rings[$0].sharing(made) } ?? deviceRing.sharing(made)
            if entry.seq >= deviceOldest { deviceRing.append(shared) }
            if let index = entry.appTimeline, entry.seq >= stored.apps[index].timeline.oldest ?? .max {
                rings[index].append(shared)
            }
        }
        anchorWall = stored.anchorWall
        device = stored.device
        deviceTimeline = deviceRing
        appTimelines = Dictionary(zip(stored.apps.map(\.id), rings)) { first, _ in first }
        idempotency = stored.answers.map { answer in
            (
                IdempotencyKey(app: answer.app, key: answer.key),
                IdempotencyCache.Answer(fingerprint: answer.fingerprint, body: answer.body)
            )
        }
        recording = stored.recording.map { InputRecording(records: $0) }
    }
}
