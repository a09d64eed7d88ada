import CoreMetrics
import Dispatch
import HTTPServer
import LifecycleCore
import LifecycleHosting
import LifecycleStore
import LifecycleWire
import Locking
import Logging
import Synchronization

extension LifecycleService {
    func readyz(_ done: @escaping @Sendable (HTTPResponse) -> Void) {
        if let reason = storeFailure.withLock({ $0 }) {
            return done(APIError.notReady("the store failed and the daemon takes no more changes: \(reason)").response)
        }
        switch currentPhase {
        case .ready: done(.json(200, BuildInfo.probe(status: "ready")))
        case .recovering: done(APIError.notReady("recovering the data directory").response)
        case .draining: done(APIError.notReady("draining before shutdown").response)
        }
    }

    func metricsResponse() -> HTTPResponse {
        metrics.parkedPolls.record(parked.load(ordering: .relaxed))
        recordCounts()
        metrics.openStreams.record(streams.count)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: Array(MetricsCatalogue.withHelp(options.metricsText() + ProcessMetrics.text()).utf8))
    }

    /// Records the device and app gauges: totals over every namespace.
    func recordCounts() {
        let counts = namespaces.all().map { ($0.name, $0.registry.apps, $0.registry.devices) }
        metrics.devices.record(counts.reduce(0) { $0 + $1.2 })
        metrics.apps.record(counts.reduce(0) { $0 + $1.1 })
        metrics.namespaces.record(counts)
    }

    func openAPIResponse(_ request: HTTPRequest) -> HTTPResponse {
        .read(openAPIDocument, request: request, contentType: "application/yaml")
    }

    /// Refuses changes from now on, logs why, and tells the daemon (once).
    func storeDidFail(_ error: StoreError) {
        metrics.storeFailures.increment()
        logger.error("the store failed", metadata: ["error": "\(error)"])
        let first = storeFailure.withLock { failure -> Bool in
            guard failure == nil else { return false }
            failure = error.clientReason
            return true
        }
        if first { options.storeFailed() }
    }
}

extension StoreError {
    /// What a client may read about the failure: no file paths, no SQL.
    var clientReason: String {
        switch self {
        case .io(_, _, let message): return "a write failed (\(message))"
        case .corrupt: return "the database is damaged"
        case .closed: return "the store is closed"
        default: return "a write failed"
        }
    }
}
