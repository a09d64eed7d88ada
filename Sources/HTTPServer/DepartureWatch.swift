import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Notices clients that leave while their connection is suspended (a parked request, an idle stream).
/// libmicrohttpd does not poll a suspended connection, so without this its descriptor stays open until the
/// responder answers (a long poll's whole `wait`, a stream's next event). Each suspended socket is registered
/// here for hang-up (`EPOLLRDHUP`); the event loop polls this epoll descriptor beside the daemon's and runs
/// the socket's departure action at once, which resumes the connection so libmicrohttpd sees the hang-up
/// and closes it.
final class DepartureWatch: Sendable {
    let descriptor: Int32
    private let parked = Protected<[Int32: @Sendable () -> Void]>([:])

    init() throws(HTTPServerError) {
        descriptor = lifecycled_hangup_watch_create()
        guard descriptor >= 0 else { throw .cannotCreateEventLoop(reason: String(cString: strerror(errno))) }
    }

    deinit {
        close(descriptor)
    }

    /// Called while a connection is being suspended (so its socket stays open): `onDeparture` runs on the
    /// event loop's thread if the client hangs up before `unwatch`.
    func watch(_ socket: Int32, onDeparture: @escaping @Sendable () -> Void) {
        guard socket >= 0 else { return }
        parked.withLock { $0[socket] = onDeparture }
        _ = lifecycled_hangup_watch_add(descriptor, socket)
    }

    /// Called before the connection is resumed: from then on libmicrohttpd watches the socket again.
    func unwatch(_ socket: Int32) {
        guard socket >= 0 else { return }
        guard parked.withLock({ $0.removeValue(forKey: socket) }) != nil else { return }
        _ = lifecycled_hangup_watch_remove(descriptor, socket)
    }

    /// Run by the event loop when `descriptor` is readable: runs the departure actions of the clients that left.
    func answerDeparted() {
        var sockets = [Int32](repeating: -1, count: 64)
        let count = lifecycled_hangup_watch_ready(descriptor, &sockets, Int32(sockets.count))
        guard count > 0 else { return }
        let departed = parked.withLock { parked in sockets[..<Int(count)].compactMap { parked[$0] } }
        for action in departed { action() }
    }
}
