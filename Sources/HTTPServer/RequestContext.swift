import CMicroHTTPD
import Locking

/// Per-request state, stored in libmicrohttpd's `req_cls` from the first handler call until
/// `MHD_OPTION_NOTIFY_COMPLETED`, and kept alive after that by any completion closure still held.
///
/// The request fields are written only by the libmicrohttpd thread serving the connection, before
/// `respond` is called. `progress` is shared with whichever thread calls the completion and is guarded by its mutex;
/// another thread reads `connection` and `socket` only under that mutex too.
///
/// A context nobody else holds when its request completes goes back to its daemon's `RequestContextPool`, emptied
/// by `reset()`, and serves a later request of the same daemon: no allocation per request for it, its lock or
/// the capacity of its fields.
final class RequestContext: @unchecked Sendable {
    /// Where a request stands between the handler calls and its completion. The answer of `.answeredEarly` and
    /// `.resumed` waits in `Progress.response`, beside the state: a state without payload is matched and
    /// changed without copying an answer.
    enum State {
        /// Headers in, body arriving; the responder has not been called. Next: `.responding`.
        case receiving
        /// `respond` was called and has not answered yet. Next: `.answeredEarly` when the completion runs
        /// before the handler parks, `.parked` otherwise, or `.queued` when parking is refused at stop.
        case responding
        /// The completion ran before parking (usually synchronously). Next: `.queued` by the same handler call.
        case answeredEarly
        /// Suspended in libmicrohttpd, waiting for the completion. Next: `.resumed`.
        case parked
        /// Completed while parked and resumed; the next handler call queues it. Next: `.queued`, or
        /// `.finished` when the client went away meanwhile.
        case resumed
        /// The response was handed to libmicrohttpd. Next: `.finished`.
        case queued
        /// libmicrohttpd is done with the request. Completions from here on are ignored.
        case finished
    }

    // The request fields: written on the connection's libmicrohttpd thread only, one at a time, and read
    // elsewhere only under `progress`'s lock (`connection`, `socket`); so the runtime's exclusivity checks on
    // them (a call per access, several per request) are left out.

    /// The connection of the request served now (in the pool: of the last one, never used there).
    @exclusivity(unchecked) private(set) var connection: OpaquePointer
    /// The connection's socket, watched while parked (see `DepartureWatch`); -1 in the pool.
    @exclusivity(unchecked) private(set) var socket: Int32
    let worker: LoopContext
    var core: ServerContext { worker.core }
    @exclusivity(unchecked) private(set) var method: String
    @exclusivity(unchecked) private(set) var path: String
    @exclusivity(unchecked) var query: [String: String] = [:]
    /// Which known fields the request has (`KnownFields`), noted as they arrived; their values stay in
    /// libmicrohttpd (`receivedFields`).
    @exclusivity(unchecked) var known = KnownFields()
    /// What the header fields say of the body's boundary and length (`RequestFraming`), noted as they arrived.
    @exclusivity(unchecked) var framing = RequestFraming()
    @exclusivity(unchecked) var body: [UInt8] = []
    @exclusivity(unchecked) var receivedBodyBytes = 0
    @exclusivity(unchecked) var bodyTooLarge = false
    /// Set by the handler when it calls the responder; later no-data calls follow a resume.
    @exclusivity(unchecked) var responderCalled = false
    /// The answer given instead of calling the responder (a foreign `Host` or `Origin`, a bad target).
    @exclusivity(unchecked) var refusal: HTTPRefusal?
    /// An allowed `Origin` (`--allowed-origin`) the answer is made readable to (`CrossOrigin`).
    @exclusivity(unchecked) var crossOrigin: String?
    /// The connection's client address (for the access log).
    @exclusivity(unchecked) var client: ClientAddress?
    /// Told when the client leaves while the request is parked; made only when the responder asks for it.
    @exclusivity(unchecked) var departure: Departure?

    private struct Progress {
        var state = State.receiving
        /// The answer given while `.answeredEarly` or `.resumed`, until it is taken to be queued.
        var response: HTTPResponse?
        /// Whether the request went through `.parked`: it stays in `core.parkedRequests` until `.finished`,
        /// so `stop()` also waits for an answer that was completed but not yet sent.
        var wasParked = false
    }

    private let progress = Protected(Progress())

    init(connection: OpaquePointer, socket: Int32, worker: LoopContext, method: String, path: String) {
        self.connection = connection
        self.socket = socket
        self.worker = worker
        self.method = method
        self.path = path
    }

    /// Capacities `reset()` keeps for the next request; a context that held more gives its storage back.
    static let keptQueryCapacity = 64
    static let keptBodyCapacity = 16 << 10

    /// Makes a context from the pool serve a new request (it was `reset()` when it went there).
    func start(connection: OpaquePointer, socket: Int32, method: String, path: String) {
        self.connection = connection
        self.socket = socket
        self.method = method
        self.path = path
    }

    /// Empties the context for the pool: nothing of the request stays, only the storage of its fields (up to the
    /// kept capacities). Called only when nothing but the pool holds it: its request finished and no
    /// completion or parked list refers to it. The lock comes first, so a thread that last touched the context
    /// under it (a completion) is ordered before these writes.
    func reset() {
        progress.withLock { $0 = Progress() }
        socket = -1
        method = ""
        path = ""
        // Most requests have no query and no body: nothing to empty then (storage reserved for a body that
        // never came is let go all the same when large).
        if query.capacity > Self.keptQueryCapacity {
            query = [:]
        } else if !query.isEmpty {
            query.removeAll(keepingCapacity: true)
        }
        framing = RequestFraming()
        known = KnownFields()
        if body.capacity > Self.keptBodyCapacity {
            body = []
        } else if !body.isEmpty {
            body.removeAll(keepingCapacity: true)
        }
        receivedBodyBytes = 0
        bodyTooLarge = false
        responderCalled = false
        refusal = nil
        crossOrigin = nil
        client = nil
        departure = nil
    }

    /// Marks the request as handed to the responder and builds what the responder sees.
    func beginResponding() -> HTTPRequest {
        progress.withLock { $0.state = .responding }
        // libmicrohttpd sends no body for HEAD (Content-Length stays), so HEAD is answered as GET.
        return HTTPRequest(
            method: method == "HEAD" ? "GET" : method, path: path, query: query, received: self, body: body)
    }

    /// Calls `read` with the connection, whose header fields libmicrohttpd keeps until the request is answered:
    /// from the first handler call, through the responder's work, while parked (a suspended connection reads
    /// nothing more), to the completion. A debug build checks that the request is not answered yet.
    func receivedFields<Result>(_ read: (OpaquePointer) -> Result) -> Result {
        assert(
            progress.withLock { [.receiving, .responding, .parked].contains($0.state) },
            "a request's header fields read after its answer: keep HTTPRequest.detached() instead")
        return read(connection)
    }

    /// Marks a request the server answers itself (a refusal) as queued, so stray completions are ignored.
    func completeWithoutResponder() {
        progress.withLock { $0.state = .queued }
    }

    /// Called by the handler right after `respond` returned: the response to queue now, or nil when the
    /// connection was parked with `MHD_suspend_connection` and the handler must return without answering.
    func responseAfterResponding() -> HTTPResponse? {
        progress.withLock { progress in
            switch progress.state {
            case .answeredEarly:
                progress.state = .queued
                return progress.response.take()
            case .responding:
                // Suspending under the lock means a completion racing in from another thread sees `.parked`
                // only once the connection is really suspended, so its resume can never come first.
                guard core.parkedRequests.insert(self) else {
                    progress.state = .queued
                    return core.response(to: .shuttingDown)
                }
                MHD_suspend_connection(connection)
                progress.state = .parked
                progress.wasParked = true
                worker.departures.watch(
                    socket,
                    onDeparture: { [self, departure] in
                        complete(with: ServerContext.clientGone)
                        departure?.fire()
                    })
                return nil
            case .receiving, .parked, .resumed, .queued, .finished:
                preconditionFailure("responseAfterResponding called in state \(progress.state)")
            }
        }
    }

    /// Called by a handler call that follows a resume: the response to queue, or nil if there is none yet.
    func responseAfterResume() -> HTTPResponse? {
        progress.withLock { progress in
            guard progress.state == .resumed else { return nil }
            progress.state = .queued
            return progress.response.take()
        }
    }

    /// The completion handed to the responder: runs on any thread, any number of times; the first call counts.
    func complete(with response: HTTPResponse) {
        // The connection and socket are read under the lock: this may run on any thread, and the context is
        // reused (`reset()`) once nothing holds it.
        let (resumed, taken) = progress.withLock { progress -> ((OpaquePointer, Int32)?, Bool) in
            switch progress.state {
            case .responding:
                progress.state = .answeredEarly
                progress.response = response
                return (nil, true)
            case .parked:
                progress.state = .resumed
                progress.response = response
                return ((connection, socket), true)
            case .receiving:
                preconditionFailure("completion ran before the responder was called")
            case .answeredEarly, .resumed, .queued, .finished:
                return (nil, false)
            }
        }
        // A stream nobody will send is over: its source must hear so.
        if !taken { response.stream?.close() }
        guard let (connection, socket) = resumed else { return }
        worker.departures.unwatch(socket)
        // Safe outside the lock: only the transition out of `.parked` resumes, and a suspended
        // connection is never freed, so the pointer stays valid until this call.
        MHD_resume_connection(connection)
        worker.connectionResumed()
    }

    /// Called from `MHD_OPTION_NOTIFY_COMPLETED`, normal end or abort alike.
    func finish() {
        let (parked, unsent) = progress.withLock { progress -> (Bool, HTTPResponse?) in
            let unsent = progress.response.take()
            progress.state = .finished
            return (progress.wasParked, unsent)
        }
        unsent?.stream?.close()
        if parked { core.parkedRequests.remove(self) }
    }

    var isFinished: Bool {
        progress.withLock { $0.state == .finished }
    }
}
