package import LifecycleCore
package import LifecycleHosting
package import LifecycleWire
import Locking

extension Application {
    /// Attaches `answerer` as the live delegate of app `app` of `namespace` (nil detaches it), on its device's
    /// queue (LIFECYCLE §13); `completion` gets why not: no such namespace or app, or an app that is not live.
    package func attachDelegate(
        _ answerer: (any CallbackAnswering)?, toApp app: String, in namespace: String,
        completion: @escaping @Sendable (Result<Void, APIError>) -> Void
    ) {
        guard let host = namespaces.existing(namespace)?.registry.app(app) else {
            return completion(.failure(.notFound("no app \(app) in namespace \(namespace)")))
        }
        host.attachDelegate(answerer, app: app) { result in completion(result.mapError(APIError.init)) }
    }
}

/// Live delegates answered over HTTP (LIFECYCLE §13): the callback an app waits on, and its answer.
extension Application {
    /// The host of live app `id` of `space`: `404` when there is none, `409` for an app with a scripted delegate.
    package func liveAppHost(_ id: String, in space: Namespace) throws(APIError) -> DeviceHost {
        let host = try appHost(id, in: space)
        let live = host.shared.withLock { $0.device.app(id)?.configuration.delegate.isLive }
        guard let live else { throw .notFound("no app \(id)") }
        guard live else {
            throw APIError(
                Rejection(
                    code: .invalidTransition,
                    detail: "app \(id) has a scripted delegate: only an app created with delegate {\"live\": true} "
                        + "waits for answers"))
        }
        return host
    }

    /// Hands `answer` to the callback `callback` that live app `app` of `space` waits on; the input that asked
    /// goes on. `409` when the app waits on no callback, or on another one.
    package func answerCallback(
        _ callback: Int, with answer: CallbackAnswer, app: String, in space: Namespace
    ) throws(APIError) {
        let host = try liveAppHost(app, in: space)
        switch host.pendingCallbacks.give(answer, to: callback, app: app) {
        case nil:
            return
        case .nothingPending:
            throw APIError(
                Rejection(
                    code: .invalidTransition,
                    detail: "app \(app) waits on no callback: callback \(callback) was answered already, or taken as "
                        + "hung once its deadline passed (--live-answer-timeout), or never asked"))
        case .otherCallback(let pending):
            throw APIError(
                Rejection(
                    code: .invalidTransition,
                    detail: "app \(app) waits on callback \(pending), not \(callback)", field: "callback"))
        }
    }
}
