import Dispatch
package import LifecycleCore

/// Live delegates attached to a device's apps (LIFECYCLE §13): asked on the device's queue, synchronously,
/// as the core applies an input; their answers are journaled with it.
extension DeviceHost {
    /// Attaches `answerer` as app `app`'s live delegate (nil detaches it); a callback of a live app with none
    /// attached hangs. Refused for an app that is not on the device or not live.
    package func attachDelegate(
        _ answerer: (any CallbackAnswering)?, app: String,
        completion: @escaping @Sendable (Result<Void, HostError>) -> Void
    ) {
        queue.async { [self] in
            guard life == .live else { return completion(.failure(.deviceGone(id))) }
            guard let instance = device.app(app) else {
                return completion(
                    .failure(.rejected(Rejection(code: .notFound, detail: "no app \(app) on device \(id)"))))
            }
            guard instance.configuration.delegate.isLive else {
                let refusal = Rejection(
                    code: .invalidTransition,
                    detail: "app \(app) has a scripted delegate: create it with delegate {\"live\": true}",
                    state: instance.state)
                return completion(.failure(.rejected(refusal)))
            }
            liveDelegates.delegates[app] = answerer
            completion(.success(()))
        }
    }

    /// Who answers the live delegates of the input about to be applied: the device's one router (a scripted app
    /// is never asked).
    var liveAnswering: (any CallbackAnswering)? { liveDelegates }
}

/// The live delegates of one device's apps, each asked for its own app's callbacks: the one attached in process,
/// else a client over HTTP (`PendingCallbacks`), for at most `timeout` seconds.
final class LiveDelegateRouter: CallbackAnswering, @unchecked Sendable {
    /// Confined to the device's queue.
    var delegates: [String: any CallbackAnswering] = [:]
    let overHTTP: PendingCallbacks
    let timeout: Double

    init(overHTTP: PendingCallbacks, timeout: Double) {
        self.overHTTP = overHTTP
        self.timeout = timeout
    }

    func answer(_ callback: PendingCallback) -> CallbackAnswer {
        if let delegate = delegates[callback.app] { return delegate.answer(callback) }
        return overHTTP.ask(callback, timeout: timeout)
    }
}

extension JournaledInput {
    /// The input as journaled: wrapped with the answers live delegates gave during it, if any.
    func withAnswers(_ answers: [CallbackAnswer]) -> JournaledInput {
        answers.isEmpty ? self : .answered(input: self, answers: answers)
    }
}
