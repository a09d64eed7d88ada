import CoreMetrics
import Locking
import Metrics

/// Metrics per namespace, with a bounded label set: the first `maxLabels` namespace names seen (`default`
/// first) get a label of their own for the life of the process, every later one counts as `other`, so
/// however many namespaces come and go, the series stay bounded.
package final class NamespaceMetrics: Sendable {
    static let maxLabels = 32
    static let otherLabel = "other"

    private struct Series {
        let requests: Counter
        let events: Counter
        let apps: Gauge
        let devices: Gauge

        init(_ label: String) {
            requests = Counter(label: "lifecycled_namespace_requests_total", dimensions: [("namespace", label)])
            events = Counter(label: "lifecycled_namespace_events_total", dimensions: [("namespace", label)])
            apps = Gauge(label: "lifecycled_namespace_apps", dimensions: [("namespace", label)])
            devices = Gauge(label: "lifecycled_namespace_devices", dimensions: [("namespace", label)])
        }
    }

    private let labelled = Protected<[String: Series]>([:])
    private let other = Series(otherLabel)
    private let maxLabels: Int
    /// The default namespace's series, resolved once: most requests count there, without a lock or a lookup.
    private let defaultSeries: Series

    package init(maxLabels: Int = NamespaceMetrics.maxLabels) {
        self.maxLabels = maxLabels
        let series = Series(NamespaceName.defaultName)
        defaultSeries = series
        labelled.withLock { $0[NamespaceName.defaultName] = series }
    }

    /// The label `name` is counted under: its own, or `other` once `maxLabels` names have one.
    func label(_ name: String) -> String {
        labelled.withLock { $0[name] != nil } ? name : Self.otherLabel
    }

    private func series(_ name: String) -> Series {
        if name == NamespaceName.defaultName { return defaultSeries }
        return labelled.withLock { series in
            if let existing = series[name] { return existing }
            guard series.count < maxLabels else { return other }
            let fresh = Series(name)
            series[name] = fresh
            return fresh
        }
    }

    /// A request that named the namespace.
    package func request(_ name: String) { series(name).requests.increment() }

    /// Events applied in the namespace (replays of an idempotent request not counted).
    package func applied(_ count: Int, in name: String) { series(name).events.increment(by: count) }

    /// Records the apps and devices of every namespace, `(name, apps, devices)`; labelled namespaces that
    /// are gone read 0.
    package func record(_ counts: [(name: String, apps: Int, devices: Int)]) {
        var sums: [String: (apps: Int, devices: Int)] = [:]
        for (name, apps, devices) in counts {
            _ = series(name)
            let label = label(name)
            let sum = sums[label] ?? (0, 0)
            sums[label] = (sum.apps + apps, sum.devices + devices)
        }
        let all = labelled.withLock { $0 }
        for (name, series) in all {
            series.apps.record(sums[name]?.apps ?? 0)
            series.devices.record(sums[name]?.devices ?? 0)
        }
        other.apps.record(sums[Self.otherLabel]?.apps ?? 0)
        other.devices.record(sums[Self.otherLabel]?.devices ?? 0)
    }
}
