package import LifecycleHosting
package import LifecycleWire

extension APIError {
    /// Why a host did not make a change, as the client sees it. Store errors name files and SQL: those
    /// go to the log, never into an answer.
    package init(_ error: HostError) {
        switch error {
        case .rejected(let rejection): self.init(rejection)
        case .deviceGone(let id): self = .notFound("device \(id) was deleted; nothing was changed")
        case .idempotencyKeyReused: self = .idempotencyKeyReused()
        case .storeFailed: self = .storeFailed
        case .notDurableYet:
            self = .notReady(
                "the first request with this Idempotency-Key is not durable yet; retry with the same key later")
        }
    }

    /// The store could not make a change durable.
    package static let storeFailed = APIError.notReady(
        "the store could not make the change durable, so it was not made; the daemon takes no more changes and "
            + "restarts to recover (GET /readyz says why meanwhile); retry then, with the same Idempotency-Key if any")
}
