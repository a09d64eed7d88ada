import CMicroHTTPD
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON-over-HTTP/1.1 server on libmicrohttpd: an epoll thread pool answering through an `HTTPResponder`.
///
/// Lifecycle: `start()` once, optionally `quiesce()`, then `stop()` (also run on deinit). The server cannot
/// be restarted; make a new one.
public final class HTTPServer: Sendable {
    private let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let logger: Logger
    private let daemon = DaemonState()

    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger) {
        self.configuration = configuration
        self.core = ServerCore(responder: responder, maxBodyBytes: configuration.maxBodyBytes, logger: logger)
        self.logger = logger
    }

    deinit {
        stop()
    }

    /// Binds and starts serving. Throws `HTTPServerError` when the configuration is invalid or the
    /// address cannot be bound (for example "Address already in use").
    public func start() throws {
        daemon.lock.lock()
        defer { daemon.lock.unlock() }
        guard case .idle = daemon.phase else { throw HTTPServerError.alreadyStarted }
        let address = try ListenAddress(host: configuration.host, port: configuration.port)
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_TURBO.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        switch configuration.pollingMode {
        case .epoll: flags |= MHD_USE_EPOLL.rawValue
        case .poll: flags |= MHD_USE_POLL.rawValue
        }
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let threads = max(2, configuration.threads)
        let started = address.withSockaddr { sockaddr in
            lifecycled_mhd_start_daemon(
                UInt32(flags),
                AccessHandler.callback,
                Unmanaged.passUnretained(core).toOpaque(),
                AccessHandler.completed,
                nil,
                sockaddr,
                UInt32(clamping: threads),
                UInt32(clamping: max(1, configuration.connectionLimit)),
                UInt32(clamping: max(0, configuration.connectionTimeoutSeconds))
            )
        }
        guard let started else {
            let reason = address.bindFailureReason() ?? "libmicrohttpd could not start the daemon"
            throw HTTPServerError.cannotListen(host: configuration.host, port: configuration.port, reason: reason)
        }
        let port = Int(lifecycled_mhd_bound_port(started))
        daemon.phase = .running(started, port: port, quiescedSocket: nil)
        logger.info(
            "HTTP server listening",
            metadata: ["host": "\(configuration.host)", "port": "\(port)", "threads": "\(threads)"]
        )
    }

    /// The bound port after `start()` (the real one when the configuration asked for 0); 0 before.
    public var port: Int {
        daemon.lock.withLock {
            switch daemon.phase {
            case .running(_, let port, _), .stopped(let port): return port
            case .idle: return 0
            }
        }
    }

    /// Stops accepting new connections. Open connections keep being served until `stop()`.
    public func quiesce() {
        daemon.lock.withLock {
            guard case .running(let handle, let port, nil) = daemon.phase else { return }
            let socket = MHD_quiesce_daemon(handle)
            // The listening socket stays open until after MHD_stop_daemon (a pool thread may still hold it),
            // so new clients would queue in its backlog unanswered; shutting it down refuses them now.
            if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            daemon.phase = .running(handle, port: port, quiescedSocket: socket >= 0 ? socket : nil)
            logger.info("HTTP server quiesced", metadata: ["port": "\(port)"])
        }
    }

    /// Answers every parked request with a 503 problem, waits briefly for those answers to go out,
    /// then stops the daemon and closes every connection. Completions arriving later are ignored.
    public func stop() {
        daemon.lock.withLock {
            guard case .running(let handle, let port, let quiescedSocket) = daemon.phase else { return }
            let parked = core.parkedRequests.close()
            for request in parked {
                request.complete(with: ProblemResponse.shuttingDown)
            }
            waitUntilFinished(parked, timeoutMilliseconds: 2000)
            // libmicrohttpd 0.9.75 aborts the process if a connection is still suspended here; none is,
            // since parking is refused once the parked requests were closed above.
            MHD_stop_daemon(handle)
            if let quiescedSocket { close(quiescedSocket) }
            daemon.phase = .stopped(port: port)
            logger.info("HTTP server stopped", metadata: ["port": "\(port)", "answeredParked": "\(parked.count)"])
        }
    }

    private func waitUntilFinished(_ requests: [RequestContext], timeoutMilliseconds: Int) {
        var waited = 0
        while waited < timeoutMilliseconds && !requests.allSatisfy(\.isFinished) {
            usleep(1000)
            waited += 1
        }
    }
}

/// The daemon handle and where the server stands; touched only by start, quiesce, stop and `port`.
private final class DaemonState: @unchecked Sendable {
    enum Phase {
        case idle
        case running(OpaquePointer, port: Int, quiescedSocket: Int32?)
        case stopped(port: Int)
    }

    let lock = Lock()
    var phase = Phase.idle
}
