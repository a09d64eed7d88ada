import CoreMetrics
import LifecycleCore
import Metrics

/// The metrics the hosts of every namespace report to (`NamespaceObserver`): events applied by type, entries
/// evicted, snapshots encoded. Created once with fixed labels (never an app or device id).
package final class HostMetrics: Sendable {
    private let events: [String: Counter]
    let evicted = Counter(label: "lifecycled_timeline_entries_evicted_total")
    let snapshotEncoding = Metrics.Timer(label: "lifecycled_snapshot_encode_duration_seconds")

    package init() {
        var events: [String: Counter] = [:]
        for type in Event.allTypes {
            events[type] = Counter(label: "lifecycled_events_total", dimensions: [("type", type)])
        }
        self.events = events
    }

    func applied(_ batch: [Event]) {
        for event in batch { events[event.type]?.increment() }
    }
}
