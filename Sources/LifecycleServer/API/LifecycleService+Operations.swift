import Dispatch
import HTTPServer
import LifecycleCore
import LifecycleStore

extension LifecycleService {
    func readyz(_ done: @escaping @Sendable (HTTPResponse) -> Void) {
        if let reason = storeFailure.withLock({ $0 }) {
            return done(APIError.notReady("the store failed and the daemon takes no more changes: \(reason)").response)
        }
        switch currentPhase {
        case .ready: done(.json(200, ["status": "ready"]))
        case .recovering: done(APIError.notReady("recovering the data directory").response)
        case .draining: done(APIError.notReady("draining before shutdown").response)
        }
    }

    func metricsResponse() -> HTTPResponse {
        metrics.parkedPolls.record(parked.load(ordering: .relaxed))
        metrics.openStreams.record(streams.count)
        metrics.devices.record(registry.devices)
        metrics.apps.record(registry.apps)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: Array(options.metricsText().utf8))
    }

    func openAPIResponse(_ request: HTTPRequest) -> HTTPResponse {
        .read(openAPIDocument, request: request, contentType: "application/yaml")
    }

    /// Deletes every device and app at once, durably, and wakes every waiter. No change of a device is
    /// journaled once the reset has taken it; device creations arriving meanwhile wait and land after it.
    func reset(_ done: @escaping @Sendable (HTTPResponse) -> Void) throws(APIError) {
        let hosts = resetGate.withLock { gate in
            gate.resets += 1
            return registry.removeAll()
        }
        metrics.devices.record(0)
        metrics.apps.record(0)
        let retired = DispatchGroup()
        for host in hosts {
            retired.enter()
            host.retire { [registry] apps in
                // Apps added while the reset was taking the registry.
                for app in apps { registry.releaseApp(app, from: host) }
                retired.leave()
            }
        }
        retired.notify(queue: .global()) { [self] in
            journal.deleteAll { [self] result in
                streams.endAll(.reset)
                for host in hosts { host.markGone() }
                switch result {
                case .success: done(HTTPResponse(status: 204))
                case .failure(let error):
                    storeDidFail(error)
                    done(APIError.storeFailed.response)
                }
            }
            let waiting = resetGate.withLock { gate -> [@Sendable () -> Void] in
                gate.resets -= 1
                guard gate.resets == 0 else { return [] }
                defer { gate.waiting = [] }
                return gate.waiting
            }
            waiting.forEach { $0() }
        }
    }

    /// Runs `work` at once unless a reset is under way; then once every reset has handed its deletion to
    /// the journal. `work` runs under the gate: no reset begins while it runs.
    func admitCreation(_ work: @escaping @Sendable () -> Void) {
        resetGate.withLock { gate in
            if gate.resets > 0 {
                gate.waiting.append { [self] in admitCreation(work) }
            } else {
                work()
            }
        }
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

/// Resets under way, and the device creations waiting for them.
struct ResetGate {
    var resets = 0
    var waiting: [@Sendable () -> Void] = []
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
