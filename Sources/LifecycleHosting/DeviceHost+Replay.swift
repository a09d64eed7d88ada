import LifecycleCore
package import LifecyclePersistence
import Locking
import Synchronization

/// Recovery, on the recovering thread before the host is reachable.
extension DeviceHost {
    /// Re-applies one journaled input: the same inputs give the same state, entries and answers.
    package func replay(_ entry: JournaledInput) throws {
        // The apps may change: which are live is looked at again.
        liveDelegates.liveApps = nil
        try replay(entry, answering: nil, recordedAs: entry)
    }

    /// Re-applies `entry` with `answering` for its live delegates; `record` is the record it came in.
    private func replay(
        _ entry: JournaledInput, answering: RecordedAnswers?, recordedAs record: JournaledInput
    ) throws {
        var entries: [TimelineEntry] = []
        var removed: String?
        switch entry {
        case .device:
            break
        case .app(let appID, let configuration):
            try device.addApp(id: appID, configuration: configuration)
            stateBytes.add(Self.describedBytes(ofApp: appID, configuration), ordering: .relaxed)
        case .deleteApp(let appID):
            let described = device.app(appID).map { Self.describedBytes(ofApp: appID, $0.configuration) } ?? 0
            try device.removeApp(id: appID)
            stateBytes.subtract(described, ordering: .relaxed)
            removed = appID
        case .events(let app, let now, let events, let key, let fingerprint):
            let outcome = try device.apply(events, app: app, now: now, answering: answering)
            entries = outcome.entries
            if let key, let fingerprint {
                let applied = AppliedEvents(device: device, app: app, outcome: outcome)
                let body = settings.rendering.answer(to: applied, notingEntries: false).body
                idempotency.remember(IdempotencyKey(app: app, key: key), .init(fingerprint: fingerprint, body: body))
            }
        case .advance(let now):
            entries = device.advance(to: now, answering: answering).entries
        case .answered(let input, let answers):
            return try replay(input, answering: RecordedAnswers(answers), recordedAs: record)
        }
        let stored = RetainedEntry.retaining(entries)
        let recorded = recordingStep(isRecording ? record.bytes : [])
        let changedApps = device.takeChangedApps()
        let snapshot = device.changes(of: changedApps)
        shared.withLock { shared in
            _ = shared.install(snapshot, changedApps: changedApps, entries: stored)
            shared.record(recorded)
            if let removed { shared.removeTimeline(of: removed) }
        }
    }
}
