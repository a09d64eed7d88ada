import CoreMetrics
import LifecycleCore
import Metrics

/// Every metric the service records, created once with fixed labels (never an app or device id).
final class ServiceMetrics: Sendable {
    /// The routes in the order of the metrics' arrays (`allCases` makes a new array at each call).
    private static let routes = Route.allCases
    static let statuses = [200, 201, 204, 304, 400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 500, 503, 507]

    private let requests: [[Counter]]
    private let otherStatus: [Counter]
    private let latency: [Metrics.Timer]
    private let events: [String: Counter]
    let evicted = Counter(label: "lifecycled_timeline_entries_evicted_total")
    let storeFailures = Counter(label: "lifecycled_store_failures_total")
    let storageRefusals = Counter(label: "lifecycled_store_refusals_total")
    let historyBytes = Gauge(label: "lifecycled_history_bytes")
    let snapshotEncoding = Metrics.Timer(label: "lifecycled_snapshot_encode_duration_seconds")
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
        requests = Self.routes.map { route in
            Self.statuses.map { status in
                Counter(
                    label: "lifecycled_http_requests_total",
                    dimensions: [("route", route.rawValue), ("status", String(status))])
            }
        }
        otherStatus = Self.routes.map { route in
            Counter(
                label: "lifecycled_http_requests_total", dimensions: [("route", route.rawValue), ("status", "other")])
        }
        latency = Self.routes.map { route in
            Metrics.Timer(label: "lifecycled_http_request_duration_seconds", dimensions: [("route", route.rawValue)])
        }
        var events: [String: Counter] = [:]
        for type in Event.allTypes {
            events[type] = Counter(label: "lifecycled_events_total", dimensions: [("type", type)])
        }
        self.events = events
    }

    func request(_ route: Route, status: Int, nanoseconds: UInt64) {
        let routeIndex = Self.routes.firstIndex(of: route)!
        if let statusIndex = Self.statuses.firstIndex(of: status) {
            requests[routeIndex][statusIndex].increment()
        } else {
            otherStatus[routeIndex].increment()
        }
        latency[routeIndex].recordNanoseconds(Int64(nanoseconds))
    }

    /// What the start-up recovery took: its duration and the journal records it replayed.
    func recovered(records: Int, seconds: Double) {
        recoveredRecords.record(records)
        recoverySeconds.record(seconds)
    }

    func applied(_ batch: [Event]) {
        for event in batch { events[event.type]?.increment() }
    }
}
