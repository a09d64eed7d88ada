import CMicroHTTPD
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Notices clients that leave while their connection is suspended (a parked request, an idle stream).
/// libmicrohttpd does not poll a suspended connection, so without this its descriptor stays open until the
/// responder answers (a long poll's whole `wait`, a stream's next event). A socket suspended for longer than
/// `delay` is registered here for hang-up (`EPOLLRDHUP`); the event loop polls this epoll descriptor beside
/// the daemon's and runs the socket's departure action at once, which resumes the connection so
/// libmicrohttpd sees the hang-up and closes it.
///
/// Most parks last microseconds (an event's answer waits for its device's queue): those are never registered,
/// which saves two `epoll_ctl` calls per request. A client that leaves sooner is noticed `delay` later.
final class DepartureWatch: Sendable {
    let descriptor: Int32
    let delay: MonotonicTime.Interval
    private let state = Protected(State())

    private struct Parked {
        var action: @Sendable () -> Void
        var registered: Bool
    }

    private struct State {
        var parked: [Int32: Parked] = [:]
        /// Sockets in the order they were parked, with when; some may have been unwatched since.
        var pending: [(socket: Int32, since: MonotonicTime)] = []
        var pendingStart = 0
    }

    init(delay: MonotonicTime.Interval = .milliseconds(50)) throws(HTTPServerError) {
        self.delay = delay
        descriptor = lifecycled_hangup_watch_create()
        guard descriptor >= 0 else { throw .cannotCreateEventLoop(reason: String(cString: strerror(errno))) }
    }

    deinit {
        close(descriptor)
    }

    /// Called while a connection is being suspended (so its socket stays open): `onDeparture` runs on the
    /// event loop's thread if the client hangs up before `unwatch` (once the socket is registered).
    func watch(_ socket: Int32, onDeparture: @escaping @Sendable () -> Void) {
        guard socket >= 0 else { return }
        state.withLock { state in
            state.parked[socket] = Parked(action: onDeparture, registered: false)
            state.pending.append((socket, MonotonicTime.now))
        }
    }

    /// Called before the connection is resumed: from then on libmicrohttpd watches the socket again.
    func unwatch(_ socket: Int32) {
        guard socket >= 0 else { return }
        // Under the lock, like the registration: a socket parked again at once is never unregistered late.
        state.withLock { state in
            guard let parked = state.parked.removeValue(forKey: socket), parked.registered else { return }
            _ = lifecycled_hangup_watch_remove(descriptor, socket)
        }
    }

    /// Run by the event loop on every turn: registers the sockets parked for `delay` or longer; returns when the
    /// next one will be due, if any is waiting.
    func registerOverdue(now: MonotonicTime) -> MonotonicTime? {
        return state.withLock { state -> MonotonicTime? in
            while state.pendingStart < state.pending.count {
                let (socket, since) = state.pending[state.pendingStart]
                if since + delay > now { break }
                state.pendingStart += 1
                if state.parked[socket]?.registered == false {
                    state.parked[socket]?.registered = true
                    _ = lifecycled_hangup_watch_add(descriptor, socket)
                }
            }
            if state.pendingStart == state.pending.count {
                state.pending.removeAll(keepingCapacity: true)
                state.pendingStart = 0
                return nil
            }
            if state.pendingStart >= 1024 && state.pendingStart * 2 >= state.pending.count {
                state.pending.removeFirst(state.pendingStart)
                state.pendingStart = 0
            }
            return state.pending[state.pendingStart].since + delay
        }
    }

    /// Run by the event loop when `descriptor` is readable: runs the departure actions of the clients that left.
    func answerDeparted() {
        var sockets = [Int32](repeating: -1, count: 64)
        let count = lifecycled_hangup_watch_ready(descriptor, &sockets, Int32(sockets.count))
        guard count > 0 else { return }
        let departed = state.withLock { state in sockets[..<Int(count)].compactMap { state.parked[$0]?.action } }
        for action in departed { action() }
    }
}
