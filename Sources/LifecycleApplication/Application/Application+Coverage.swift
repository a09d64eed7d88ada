import LifecycleCore
package import LifecycleExplore
import LifecycleHosting
import LifecycleJSON
import LifecyclePersistence
import Locking

/// What a namespace's apps have exercised, as `lifecycled check --coverage` reports a suite's (`Coverage`).
extension Application {
    /// The coverage of `space`: per device, the states, transitions, callbacks and scene states of its retained
    /// timeline and the event types of its recorded inputs, counted in the band of its `iosVersion`, against the
    /// model's bands (`ModelBands.known`, derived once per process). Each device's lock is held only to copy
    /// its timeline and recording (shared storage, not the bytes); the counting runs after, off the lock. Its
    /// cost: the namespace's retained entries (`--history-limit`, `--history-bytes`) and recordings
    /// (`--recording-bytes` a device).
    package func coverage(of space: Namespace) -> Coverage {
        var coverage = Coverage(model: ModelBands.known)
        for host in space.registry.allDevices().sorted(by: { $0.id < $1.id }) {
            let read = host.shared.withLock { shared -> (String, EntryRing, InputRecording)? in
                guard !shared.gone else { return nil }
                return (shared.device.configuration.iosVersion.description, shared.deviceTimeline, shared.recording)
            }
            guard let (iosVersion, timeline, recording) = read else { continue }
            let records = recording.records
            var tally = CoverageTally()
            for retained in timeline.retained {
                if let entry = retained.entry { tally.add(entry) }
            }
            for record in records {
                guard let input = try? JournaledInput(bytes: record) else { continue }
                for event in input.events { tally.events.insert(event.type) }
            }
            coverage.add(iosVersion: iosVersion, tally)
        }
        return coverage
    }
}

extension JournaledInput {
    /// The events an input applied (none for a creation, a deletion or a clock's advance).
    var events: [Event] {
        switch self {
        case .events(_, _, let events, _, _): events
        case .answered(let input, _): input.events
        default: []
        }
    }
}
