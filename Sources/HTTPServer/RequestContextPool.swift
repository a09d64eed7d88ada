/// The `RequestContext`s one daemon keeps for reuse, so a request allocates no context, lock or field storage
/// of its own: a context goes back here when its request completes and nothing else holds it, and the next
/// request head of the daemon takes it.
///
/// Used only by the daemon's callbacks: on its event loop's thread, or, once that thread has ended, on the one
/// stopping the daemon (`MHD_stop_daemon` completes the requests still open). Hence no lock.
///
/// Each kept context holds its `LoopContext`, which holds this pool: `drain()` breaks that cycle once the daemon
/// is stopped.
final class RequestContextPool: @unchecked Sendable {
    /// Most contexts kept; more requests at once allocate contexts of their own, freed when done.
    static let limit = 64

    /// Touched by one thread at a time (above), one access at a time: no runtime exclusivity checks.
    @exclusivity(unchecked) private var free: [RequestContext] = []

    init() {
        free.reserveCapacity(Self.limit)
    }

    /// Contexts kept now.
    var count: Int { free.count }

    /// A context for a request whose head just arrived: a kept one when there is one, else a new one.
    func take(
        connection: OpaquePointer, socket: Int32, worker: LoopContext, method: String, path: String
    ) -> RequestContext {
        guard let request = free.popLast() else {
            return RequestContext(connection: connection, socket: socket, worker: worker, method: method, path: path)
        }
        request.start(connection: connection, socket: socket, method: method, path: path)
        return request
    }

    /// Keeps `request`, emptied, when its request is over (finished by libmicrohttpd, or answered before it was
    /// stored) and nothing else refers to it: a completion closure or a parked list may still hold it after
    /// `finish()`, and then it is left to them (and freed as usual). Returns whether it was kept.
    @discardableResult
    func recycle(_ request: inout RequestContext) -> Bool {
        guard free.count < Self.limit, isKnownUniquelyReferenced(&request) else { return false }
        request.reset()
        free.append(request)
        return true
    }

    /// Lets go of every kept context; called once the daemon is stopped.
    func drain() {
        free.removeAll()
    }
}
