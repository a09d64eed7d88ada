import HTTPServer
import LifecycleCore

extension LifecycleService {
    func readyz(_ done: @escaping @Sendable (HTTPResponse) -> Void) {
        switch currentPhase {
        case .ready: done(.json(200, ["status": "ready"]))
        case .recovering: done(APIError.notReady("recovering the data directory").response)
        case .draining: done(APIError.notReady("draining before shutdown").response)
        }
    }

    func metricsResponse() -> HTTPResponse {
        metrics.parkedPolls.record(parked.load(ordering: .relaxed))
        metrics.devices.record(registry.devices)
        metrics.apps.record(registry.apps)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: Array(options.metricsText().utf8))
    }

    func openAPIResponse(_ request: HTTPRequest) -> HTTPResponse {
        .read(openAPIDocument, request: request, contentType: "application/yaml")
    }

    /// Deletes every device and app at once, durably, and wakes every waiter.
    func reset(_ done: @escaping @Sendable (HTTPResponse) -> Void) throws(APIError) {
        let hosts = registry.removeAll()
        metrics.devices.record(0)
        metrics.apps.record(0)
        // Each device's queue finishes what it accepted before the journal forgets everything.
        for host in hosts { host.queue.sync {} }
        journal.deleteAll { result in
            for host in hosts { host.discard() }
            switch result {
            case .success: done(HTTPResponse(status: 204))
            case .failure(let error): done(APIError.internalError("the store failed: \(error)").response)
            }
        }
    }
}
