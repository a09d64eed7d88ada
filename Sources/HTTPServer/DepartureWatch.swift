import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Notices clients that leave while their request is parked. libmicrohttpd does not poll a suspended
/// connection, so without this its descriptor stays open until the responder answers (a long poll's whole
/// `wait`). Each parked socket is registered here for hang-up (`EPOLLRDHUP`); the event loop polls this
/// epoll descriptor beside the daemon's, and answers a departed client's request at once, which resumes the
/// connection so libmicrohttpd sees the hang-up and closes it.
final class DepartureWatch: Sendable {
    let descriptor: Int32
    private let parked = Protected<[Int32: RequestContext]>([:])

    init() throws(HTTPServerError) {
        descriptor = lifecycled_hangup_watch_create()
        guard descriptor >= 0 else { throw .cannotCreateEventLoop(reason: String(cString: strerror(errno))) }
    }

    deinit {
        close(descriptor)
    }

    /// Called while the request is being parked (its connection is suspended, so its socket stays open).
    func watch(_ socket: Int32, for request: RequestContext) {
        guard socket >= 0 else { return }
        parked.withLock { $0[socket] = request }
        _ = lifecycled_hangup_watch_add(descriptor, socket)
    }

    /// Called before the connection is resumed: from then on libmicrohttpd watches the socket again.
    func unwatch(_ socket: Int32) {
        guard socket >= 0 else { return }
        guard parked.withLock({ $0.removeValue(forKey: socket) }) != nil else { return }
        _ = lifecycled_hangup_watch_remove(descriptor, socket)
    }

    /// Run by the event loop when `descriptor` is readable: answers the requests whose client left.
    func answerDeparted() {
        var sockets = [Int32](repeating: -1, count: 64)
        let count = lifecycled_hangup_watch_ready(descriptor, &sockets, Int32(sockets.count))
        guard count > 0 else { return }
        let departed = parked.withLock { parked in sockets[..<Int(count)].compactMap { parked[$0] } }
        for request in departed { request.complete(with: ProblemResponse.clientGone) }
    }
}
