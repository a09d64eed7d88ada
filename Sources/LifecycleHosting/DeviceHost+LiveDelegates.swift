import Dispatch
import Foundation
package import LifecycleCore
import LifecyclePersistence

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

    /// Runs `body` on a thread of its own with the device's queue held (suspended) until it returns: for an input
    /// whose callbacks may wait for answers over HTTP, so that the wait takes none of the workers every device
    /// queue shares (`workers`), whatever the number of devices waiting. Called on the queue; nothing else runs
    /// there meanwhile, so `body` has the host's queue-confined state to itself.
    func onThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) {
        queue.suspend()
        let thread = Thread { [queue] in
            body()
            queue.resume()
        }
        thread.name = "lifecycled.live-delegate"
        thread.start()
    }
}

/// The live delegates of one device's apps, each asked for its own app's callbacks: the one attached in process,
/// else a client over HTTP (`PendingCallbacks`), for at most `timeout` seconds.
final class LiveDelegateRouter: CallbackAnswering, @unchecked Sendable {
    /// Confined to the device's queue.
    var delegates: [String: any CallbackAnswering] = [:]
    /// The device's live apps; nil once its apps changed, until looked at again (`waitsOverHTTP`).
    var liveApps: Set<String>?
    let overHTTP: PendingCallbacks
    let timeout: Double

    init(overHTTP: PendingCallbacks, timeout: Double) {
        self.overHTTP = overHTTP
        self.timeout = timeout
    }

    /// Whether a callback of `device` may wait for its answer over HTTP: it has a live app with no delegate
    /// attached in process. A scripted device's answer costs a look at an empty set.
    func waitsOverHTTP(on device: Device) -> Bool {
        if liveApps == nil {
            liveApps = Set(device.appsInOrder.lazy.filter { $0.configuration.delegate.isLive }.map(\.id))
        }
        return liveApps?.contains { delegates[$0] == nil } ?? false
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
