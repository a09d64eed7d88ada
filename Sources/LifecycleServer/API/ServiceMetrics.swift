import CoreMetrics
import LifecycleApplication
import Metrics

/// Every metric the service records, created once with fixed labels (never an app or device id).
final class ServiceMetrics: Sendable {
    /// Every request's count and duration, by route (and status).
    let requests = RequestMetrics()
    /// What the hosts of every namespace report (`NamespaceObserver`).
    let hosts = HostMetrics()
    let storeFailures = Counter(label: "lifecycled_store_failures_total")
    let storageRefusals = Counter(label: "lifecycled_store_refusals_total")
    let historyBytes = Gauge(label: "lifecycled_history_bytes")
    let storeUsedBytes = Gauge(label: "lifecycled_store_used_bytes")
    let storeFreeBytes = Gauge(label: "lifecycled_store_free_disk_bytes")
    let devices = Gauge(label: "lifecycled_devices")
    let apps = Gauge(label: "lifecycled_apps")
    let parkedPolls = Gauge(label: "lifecycled_long_polls_parked")
    let namespaces = NamespaceMetrics()
    let openStreams = Gauge(label: "lifecycled_event_streams_open")
    private let recoverySeconds = Gauge(label: "lifecycled_recovery_seconds")
    private let recoveredRecords = Gauge(label: "lifecycled_recovery_records")

    /// 1, with the build's version and revision as labels.
    private let buildInfo = Gauge(
        label: "lifecycled_build_info", dimensions: [("version", BuildInfo.version), ("revision", BuildInfo.revision)])

    init() {
        buildInfo.record(1)
    }

    /// What the start-up recovery took: its duration and the journal records it replayed.
    func recovered(records: Int, seconds: Double) {
        recoveredRecords.record(records)
        recoverySeconds.record(seconds)
    }
}
