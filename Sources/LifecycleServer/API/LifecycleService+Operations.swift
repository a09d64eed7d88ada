import CoreMetrics
import Dispatch
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleStore
import LifecycleWire
import Locking
import Logging
import Synchronization

extension LifecycleService {
    func readyz(_ done: AnswerSink) {
        if let reason = storeFailure.withLock({ $0 }) {
            return done(APIError.notReady("the store failed and the daemon takes no more changes: \(reason)").response)
        }
        switch currentPhase {
        case .ready: done(BuildInfo.readyAnswer)
        case .recovering: done(APIError.notReady("recovering the data directory").response)
        case .draining: done(APIError.notReady("draining before shutdown").response)
        }
    }

    func metricsResponse() -> HTTPResponse {
        metrics.parkedPolls.record(parked.load(ordering: .relaxed))
        recordCounts()
        metrics.openStreams.record(streams.count)
        metrics.historyBytes.record(memoryBudget.total)
        if let use = journal.diskUse {
            metrics.storeUsedBytes.record(use.usedBytes)
            metrics.storeFreeBytes.record(use.freeBytes)
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: Array(
                MetricsCatalogue.withHelp(options.metricsText() + metrics.requests.text() + ProcessMetrics.text()).utf8)
        )
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

    /// `507 insufficient-storage` when the store holds `--max-data-bytes` already or its file system has less
    /// than `--min-free-disk-bytes` left (as of the store's last commit); nil otherwise.
    func storageRefusal() -> APIError? {
        guard let use = journal.diskUse else { return nil }
        var refusal: APIError?
        if options.maxDataBytes > 0, use.usedBytes >= Int64(options.maxDataBytes) {
            refusal = APIError(
                .insufficientStorage,
                "the data directory holds \(use.usedBytes) bytes, its cap is \(options.maxDataBytes) "
                    + "(--max-data-bytes): delete devices or namespaces, or raise the cap; nothing changed")
            refusal?.extra["limit"] = .number(Double(options.maxDataBytes))
        } else if use.freeBytes < Int64(options.minFreeDiskBytes) {
            refusal = APIError(
                .insufficientStorage,
                "the data directory's disk has \(use.freeBytes) bytes left, less than the \(options.minFreeDiskBytes) "
                    + "it keeps free (--min-free-disk-bytes): free some, or delete devices or namespaces; nothing changed"
            )
            refusal?.extra["limit"] = .number(Double(options.minFreeDiskBytes))
        }
        if refusal != nil { metrics.storageRefusals.increment() }
        return refusal
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
