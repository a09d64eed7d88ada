import CMicroHTTPD
import Locking
public import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON-over-HTTP/1.1 server on libmicrohttpd answering through an `HTTPResponder`: one daemon per thread,
/// each run by an `EventLoop` of ours, all on one address (libmicrohttpd's own polling threads can stall:
/// `docs/LIBMICROHTTPD.md`).
///
/// Lifecycle: `start()` once, optionally `quiesce()`, then `stop()` (also run on deinit). The server cannot
/// be restarted; make a new one.
public final class HTTPServer: Sendable {
    private let configuration: HTTPServerConfiguration
    private let core: ServerContext
    private let logger: Logger
    private let phase = Protected(Phase.idle)

    /// Where the server stands; touched only by start, quiesce, stop and `port`.
    private enum Phase {
        case idle
        case running(Daemons)
        case stopped(port: Int)
    }

    /// The running daemons, one per event loop.
    private struct Daemons {
        var handles: [OpaquePointer]
        var workers: [LoopContext]
        var loops: [EventLoop]
        var port: Int
        var quiescedSockets: [Int32]?
    }

    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger) {
        self.configuration = configuration
        self.core = ServerContext(responder: responder, configuration: configuration, logger: logger)
        self.logger = logger
    }

    deinit {
        stop()
    }

    /// Binds and starts serving. Throws `HTTPServerError` when the configuration is invalid or the
    /// address cannot be bound (for example "Address already in use").
    public func start() throws {
        try phase.withLock { phase in
            guard case .idle = phase else { throw HTTPServerError.alreadyStarted }
            let daemons = try startDaemons()
            phase = .running(daemons)
            logger.info(
                "HTTP server listening",
                metadata: [
                    "host": "\(configuration.host)", "port": .stringConvertible(daemons.port),
                    "threads": .stringConvertible(daemons.handles.count),
                ])
        }
    }

    private func startDaemons() throws(HTTPServerError) -> Daemons {
        var address = try ListenAddress(host: configuration.host, port: configuration.port)
        let idleTimeout = MonotonicTime.Interval.seconds(max(1, configuration.idleTimeoutSeconds))
        var flags = MHD_USE_TURBO.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // One daemon per loop, all bound with SO_REUSEPORT. That would also let a second server join this
        // port unnoticed, so first make sure nothing listens there yet.
        if configuration.port != 0, let reason = address.bindFailureReason() {
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: reason)
        }
        flags |= MHD_USE_EPOLL.rawValue
        let loopCount = max(1, configuration.threads)
        // The accept policy holds --max-connections over all loops (ClientConnections); each loop may take
        // them all, so libmicrohttpd refuses none itself, uncounted, while another loop has room.
        let perLoopLimit = max(1, configuration.connectionLimit)
        var daemons = Daemons(handles: [], workers: [], loops: [], port: configuration.port)
        do {
            for _ in 0..<loopCount {
                let worker = LoopContext(
                    core: core, idleTimeout: idleTimeout, wakeUp: try EventSignal(), departures: try DepartureWatch())
                let handle = try startDaemon(
                    flags: flags, worker: worker, address: address, connectionLimit: perLoopLimit)
                daemons.handles.append(handle)
                daemons.workers.append(worker)
                if daemons.handles.count == 1 {
                    daemons.port = Int(lifecycled_mhd_bound_port(handle))
                    address = try ListenAddress(host: configuration.host, port: daemons.port)
                }
                let loop = try EventLoop(daemon: handle, worker: worker)
                try loop.start()
                daemons.loops.append(loop)
            }
        } catch {
            for loop in daemons.loops { loop.stop() }
            for handle in daemons.handles { MHD_stop_daemon(handle) }
            for worker in daemons.workers { worker.requests.drain() }
            throw error
        }
        return daemons
    }

    private func startDaemon(
        flags: UInt32, worker: LoopContext, address: ListenAddress, connectionLimit: Int
    ) throws(HTTPServerError) -> OpaquePointer {
        let context = Unmanaged.passUnretained(worker).toOpaque()
        let started = address.withSockaddr { sockaddr in
            lifecycled_mhd_start_daemon(
                flags,
                ConnectionCallbacks.acceptPolicy, context,
                AccessHandler.callback, context,
                AccessHandler.completed, context,
                ConnectionCallbacks.notify, context,
                ConnectionCallbacks.requestLine, context,
                sockaddr,
                UInt32(clamping: max(1, connectionLimit)),
                UInt32(clamping: max(1, configuration.idleTimeoutSeconds))
            )
        }
        guard let started else {
            let reason = address.bindFailureReason() ?? "libmicrohttpd could not start the daemon"
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: reason)
        }
        return started
    }

    /// The bound port after `start()` (the real one when the configuration asked for 0); 0 before.
    public var port: Int {
        phase.withLock { phase in
            switch phase {
            case .running(let daemons): return daemons.port
            case .stopped(let port): return port
            case .idle: return 0
            }
        }
    }

    /// Connections open now, over all daemons (those libmicrohttpd has accepted and not yet closed).
    public var openConnections: Int {
        phase.withLock { phase in
            guard case .running(let daemons) = phase else { return 0 }
            return daemons.workers.reduce(0) { $0 + $1.connections.count }
        }
    }

    /// Stops accepting new connections. Open connections keep being served until `stop()`.
    public func quiesce() {
        phase.withLock { phase in
            guard case .running(var daemons) = phase, daemons.quiescedSockets == nil else { return }
            var sockets: [Int32] = []
            for handle in daemons.handles {
                let socket = MHD_quiesce_daemon(handle)
                // The listening socket stays open until after MHD_stop_daemon, so new clients would queue in
                // its backlog unanswered; shutting it down refuses them now.
                if socket >= 0 {
                    _ = shutdown(socket, Int32(SHUT_RDWR))
                    sockets.append(socket)
                }
            }
            for worker in daemons.workers { worker.connectionResumed() }
            daemons.quiescedSockets = sockets
            phase = .running(daemons)
            logger.info("HTTP server quiesced", metadata: ["port": .stringConvertible(daemons.port)])
        }
    }

    /// Streams open now (`HTTPStream` responses libmicrohttpd holds), over all daemons.
    public var openStreams: Int { core.openStreams.count }

    /// Answers every parked request with the responder's answer to `HTTPRefusal.shuttingDown` and ends every stream (after what its source already
    /// gave), waits briefly (`stopGraceMilliseconds`, 2 s by default, at most) for those answers to go out, then stops the loops and the daemons and
    /// closes every connection. Completions arriving later are ignored.
    public func stop() {
        phase.withLock { phase in
            guard case .running(let daemons) = phase else { return }
            let parked = core.parkedRequests.close()
            let shuttingDown = core.response(to: .shuttingDown)
            for request in parked {
                request.complete(with: shuttingDown)
            }
            // Every stream is resumed here, so none is suspended when the daemons stop (libmicrohttpd would
            // abort); a client that does not read its end is cut off when the daemon stops.
            let streams = core.openStreams.close()
            for stream in streams { stream.stopServing() }
            waitUntilFinished(parked, streams: streams, timeoutMilliseconds: configuration.stopGraceMilliseconds)
            for loop in daemons.loops { loop.stop() }
            // libmicrohttpd 0.9.75 aborts the process if a connection is still suspended here; none is,
            // since parking is refused once the parked requests were closed above, and every parked one was
            // resumed (MHD_stop_daemon finishes resumes still pending).
            for handle in daemons.handles { MHD_stop_daemon(handle) }
            // No callback runs any more: the kept request contexts (which hold their worker) can go.
            for worker in daemons.workers { worker.requests.drain() }
            for socket in daemons.quiescedSockets ?? [] { close(socket) }
            phase = .stopped(port: daemons.port)
            logger.info(
                "HTTP server stopped",
                metadata: [
                    "port": .stringConvertible(daemons.port), "answeredParked": .stringConvertible(parked.count),
                    "endedStreams": .stringConvertible(streams.count),
                ])
        }
    }

    private func waitUntilFinished(_ requests: [RequestContext], streams: [HTTPStream], timeoutMilliseconds: Int) {
        var waited = 0
        while waited < timeoutMilliseconds
            && !(requests.allSatisfy(\.isFinished) && streams.allSatisfy(\.isClosed))
        {
            usleep(1000)
            waited += 1
        }
    }
}
