import Locking

/// The requests parked (suspended in libmicrohttpd) and not yet finished, so `stop()` can answer and resume
/// them, and wait for answers completed just before it to go out.
///
/// Only the slow path touches this: a request answered synchronously never does.
/// Lock order: a request's own lock may be held while taking this one, never the other way round.
final class ParkedRequests: Sendable {
    private struct State {
        var requests: [ObjectIdentifier: RequestContext] = [:]
        var closed = false
    }

    private let state = Protected(State())

    /// Adds a request about to be parked. Returns false once `close()` ran: the request must then be
    /// answered at once instead, because libmicrohttpd aborts when stopped with suspended connections.
    func insert(_ request: RequestContext) -> Bool {
        state.withLock { state in
            if state.closed { return false }
            state.requests[ObjectIdentifier(request)] = request
            return true
        }
    }

    func remove(_ request: RequestContext) {
        _ = state.withLock { $0.requests.removeValue(forKey: ObjectIdentifier(request)) }
    }

    /// Refuses further parking and hands back every request parked now.
    func close() -> [RequestContext] {
        state.withLock { state in
            state.closed = true
            let parked = Array(state.requests.values)
            state.requests.removeAll()
            return parked
        }
    }
}
