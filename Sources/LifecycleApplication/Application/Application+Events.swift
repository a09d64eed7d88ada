package import LifecycleCore
package import LifecycleHosting
package import LifecycleWire

/// Events sent to an app or a device: decoded, held to the size bound, applied on the device's queue, counted.
extension Application {
    /// The host of the app `id` of `space`; `404` when there is none.
    package func appHost(_ id: String, in space: Namespace) throws(APIError) -> DeviceHost {
        guard let host = space.registry.app(id) else { throw .notFound("no app \(id)") }
        return host
    }

    /// The host of the device `id` of `space`; `404` when there is none.
    package func deviceHost(_ id: String, in space: Namespace) throws(APIError) -> DeviceHost {
        guard let host = space.registry.device(id) else { throw .notFound("no device \(id)") }
        return host
    }

    /// Applies `json` (one event or a batch, `rawBytes` as sent) to `host` of `space`, all or nothing: to the app
    /// `app` (its events and its device's), or without one to the device (device events only).
    /// `idempotencyKey` (1 to 256 characters): a retry with the same key and body gets the first answer's bytes
    /// (`replayed`), with another body `422`. `completion` runs once the change is durable, or with why it was
    /// refused; what is thrown was refused before anything was applied.
    package func send(
        _ json: JSONValue, rawBytes: Int, to host: DeviceHost, app: String?, in space: Namespace,
        idempotencyKey: String?,
        completion: @escaping @Sendable (Result<DeviceHost.EventsAnswer, APIError>) -> Void
    ) throws(APIError) {
        let (batch, answers) = try CallbackAnswerRequest.answeredEvents(json)
        try checkSize(of: batch, rawBytes: rawBytes, batch: true, what: "an event")
        let events = try EventDecoder.decode(batch, deviceOnly: app == nil)
        if let key = idempotencyKey {
            guard !key.isEmpty, key.utf8.count <= 256 else {
                throw .invalidField("Idempotency-Key", "Idempotency-Key must be 1 to 256 characters")
            }
        }
        let namespace = space.name
        host.applyEvents(
            .init(events: events, json: json, app: app, idempotencyKey: idempotencyKey, answers: answers)
        ) {
            [metrics] result in
            switch result {
            case .success(let answer):
                if !answer.replayed { metrics.namespaces.applied(events.count, in: namespace) }
                completion(.success(answer))
            case .failure(let error):
                completion(.failure(APIError(error)))
            }
        }
    }
}
