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
        if let reason = application.storeFailure.withLock({ $0 }) {
            return done(APIError.notReady("the store failed and the daemon takes no more changes: \(reason)").response)
        }
        switch application.currentPhase {
        case .ready: done(BuildInfo.readyAnswer)
        case .recovering: done(APIError.notReady("recovering the data directory").response)
        case .draining: done(APIError.notReady("draining before shutdown").response)
        }
    }

    func metricsResponse() -> HTTPResponse {
        metrics.parkedPolls.record(parked.load(ordering: .relaxed))
        application.recordCounts()
        metrics.openEventStreams.record(eventStreams.count)
        metrics.historyBytes.record(application.memoryBudget.total)
        if let use = application.journal.diskUse {
            metrics.storeUsedBytes.record(use.usedBytes)
            metrics.storeFreeBytes.record(use.freeBytes)
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: Array(
                MetricsCatalogue.withHelp(options.metricsText() + metrics.requests.text() + ProcessMetrics.text()).utf8)
        )
    }

    func openAPIResponse(_ request: HTTPRequest) -> HTTPResponse {
        .read(openAPIDocument, request: request, contentType: "application/yaml")
    }

}
