import Foundation
public import LifecycleClient
public import LifecycleCore
import LifecycleApplication
import LifecycleDaemon
import LifecycleOpenAPI
import LifecycleServer
import LifecycleWire
import Locking

extension EmbeddedDaemon {
    /// Makes `delegate` (and `sceneDelegate`) the live delegate of app `app` of `namespace`, created with
    /// `delegate: {"live": true}` (docs/LIFECYCLE.md §13): from now on each of its callbacks is answered by
    /// their methods, synchronously on the device's queue, as the events that cause them are applied. Answers
    /// the adapter, whose `application` is the app's `UIApplication`. Throws a `LifecycledProblem` for an app
    /// that does not exist or is not live.
    @discardableResult
    public func attach(
        _ delegate: any LiveApplicationDelegate, sceneDelegate: (any LiveSceneDelegate)? = nil, toApp app: String,
        namespace: String = "default"
    ) throws -> LiveDelegateAdapter {
        let adapter = LiveDelegateAdapter(app: app, delegate: delegate, sceneDelegate: sceneDelegate)
        try attach(answerer: adapter, toApp: app, namespace: namespace)
        return adapter
    }

    /// Attaches any `CallbackAnswering` (nil detaches the app's live delegate: its callbacks then hang).
    public func attach(answerer: (any CallbackAnswering)?, toApp app: String, namespace: String = "default") throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Protected<Result<Void, APIError>?>(nil)
        daemon.service.application.attachDelegate(answerer, toApp: app, in: namespace) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        if case .failure(let error) = outcome.withLock({ $0 }) {
            let document = try JSONDecoder().decode(Components.Schemas.Problem.self, from: Data(error.document))
            throw LifecycledProblem(status: error.status, document: document)
        }
    }
}
