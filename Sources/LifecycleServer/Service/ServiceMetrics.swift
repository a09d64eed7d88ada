import CoreMetrics
import LifecycleApplication
import Metrics

/// Every metric the service records, created once with fixed labels (never an app or device id).
final class ServiceMetrics: Sendable {
    /// Every request's count and duration, by route (and status).
    let requests = RequestMetrics()
    /// The application's: hosts, namespaces, totals, the store's failures, recovery.
    let application: ApplicationMetrics
    /// Requests and events per namespace.
    var namespaces: NamespaceMetrics { application.namespaces }
    let historyBytes = Gauge(label: "lifecycled_history_bytes")
    let storeUsedBytes = Gauge(label: "lifecycled_store_used_bytes")
    let storeFreeBytes = Gauge(label: "lifecycled_store_free_disk_bytes")
    let parkedPolls = Gauge(label: "lifecycled_long_polls_parked")
    let openEventStreams = Gauge(label: "lifecycled_event_streams_open")

    /// 1, with the build's version and revision as labels.
    private let buildInfo = Gauge(
        label: "lifecycled_build_info", dimensions: [("version", BuildInfo.version), ("revision", BuildInfo.revision)])

    init(application: ApplicationMetrics) {
        self.application = application
        buildInfo.record(1)
    }
}
