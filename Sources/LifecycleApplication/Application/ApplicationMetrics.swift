import CoreMetrics
import Metrics

/// The metrics of the application, created once with fixed labels (never an app or device id): what the hosts
/// report (`HostMetrics`), the namespaces' series, the device and app totals, the store's failures and
/// refusals, and what the start-up recovery took.
package final class ApplicationMetrics: Sendable {
    /// What the hosts of every namespace report (`NamespaceObserver`).
    package let hosts = HostMetrics()
    package let namespaces = NamespaceMetrics()
    let devices = Gauge(label: "lifecycled_devices")
    let apps = Gauge(label: "lifecycled_apps")
    let storeFailures = Counter(label: "lifecycled_store_failures_total")
    let storageRefusals = Counter(label: "lifecycled_store_refusals_total")
    private let recoverySeconds = Gauge(label: "lifecycled_recovery_seconds")
    private let recoveredRecords = Gauge(label: "lifecycled_recovery_records")

    package init() {}

    /// What the start-up recovery took: its duration and the journal records it replayed.
    func recovered(records: Int, seconds: Double) {
        recoveredRecords.record(records)
        recoverySeconds.record(seconds)
    }
}
