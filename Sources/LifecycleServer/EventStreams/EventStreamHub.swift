import Dispatch
import LifecycleApplication
import Locking

/// Every open event stream of the service: for the open-streams gauge, the keep-alive comments (one timer
/// for all of them) and ending them all at a reset or a drain.
final class EventStreamHub: @unchecked Sendable {
    private let streams = Protected<[ObjectIdentifier: LiveEventStream]>([:])
    private let timer: any DispatchSourceTimer

    /// `keepAliveSeconds`: how often every stream gets a `: keep-alive` comment (15 s in the daemon).
    init(keepAliveSeconds: Double) {
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let period = DispatchTimeInterval.milliseconds(Int(max(0.01, keepAliveSeconds) * 1000))
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.keepAliveAll() }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    var count: Int { streams.withLock { $0.count } }

    func add(_ stream: LiveEventStream) {
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    func remove(_ stream: LiveEventStream) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Ends every open stream with `event: end` and `reason`.
    func endAll(_ reason: EventStreamEnd) {
        for stream in streams.withLock({ Array($0.values) }) { stream.end(reason) }
    }

    /// Ends, with `revoked`, every open stream the new tokens no longer allow.
    func endRevoked(by policy: AccessPolicy) {
        for stream in streams.withLock({ Array($0.values) }) where stream.access?.allowed(by: policy) == false {
            stream.end(.revoked)
        }
    }

    private func keepAliveAll() {
        for stream in streams.withLock({ Array($0.values) }) { stream.keepAlive() }
    }
}
