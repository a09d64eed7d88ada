/// Where and how an `HTTPServer` listens.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal, or `"localhost"` (meaning 127.0.0.1). Loopback by default.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one, which `HTTPServer.port` reports after `start()`.
    public var port: Int = 8080
    /// Size of libmicrohttpd's thread pool. Values below 2 are raised to 2: a single epoll thread
    /// in libmicrohttpd 0.9.75 can stall when exactly 128·k connections become ready at once.
    public var threads: Int = 2
    /// Requests with a larger body are answered with 413.
    public var maxBodyBytes: Int = 1 << 20
    /// Most connections open at once, parked ones included.
    public var connectionLimit: Int = 20000
    /// Idle connections are closed after this many seconds. Parked connections never time out.
    public var connectionTimeoutSeconds: Int = 60
    /// How libmicrohttpd's threads wait for sockets. `.epoll` by default; see `PollingMode`.
    public var pollingMode: PollingMode = .epoll

    /// The readiness mechanism of libmicrohttpd's thread pool.
    public enum PollingMode: Sendable {
        /// `MHD_USE_EPOLL`. Caution: with libmicrohttpd 0.9.75 a load of exactly 128 connections sometimes
        /// stalls to a few dozen requests/s even with a pool of 2 threads (seen in both this server and the
        /// bare C baseline, in about one run of four).
        case epoll
        /// `MHD_USE_POLL`. Did not show the 128-connection stall in the same runs.
        case poll
    }

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threads: Int = 2,
        maxBodyBytes: Int = 1 << 20,
        connectionLimit: Int = 20000,
        connectionTimeoutSeconds: Int = 60,
        pollingMode: PollingMode = .epoll
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.pollingMode = pollingMode
    }
}
