package import LifecycleCore
import LifecycleHosting
package import LifecycleWire

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
