/// Where and how an `HTTPServer` listens.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal, or `"localhost"` (meaning 127.0.0.1). Loopback by default.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one, which `HTTPServer.port` reports after `start()`.
    public var port: Int = 8080
    /// HTTP threads, each an `EventLoop` running a libmicrohttpd daemon of its own, all on one address (at least 1).
    public var threads: Int = 2
    /// Requests with a larger body are answered with 413.
    public var maxBodyBytes: Int = 1 << 20
    /// Most connections open at once, parked ones included; shared evenly between the event loops.
    public var connectionLimit: Int = 20000
    /// Most connections open at once from one client address; further ones are closed at once.
    public var perClientConnectionLimit: Int = 4096
    /// A connection must send a whole request head within this many seconds of opening or of its previous
    /// answer, else it is closed: bytes trickling in do not extend it (slowloris). It is also libmicrohttpd's
    /// timer for a connection that sends or reads nothing while a body or an answer is under way. Parked
    /// connections never time out.
    public var idleTimeoutSeconds: Int = 30
    /// How long `stop` waits, at most, for the answers it gave parked requests and the ends of streams to go out
    /// before it closes every connection.
    public var stopGraceMilliseconds: Int = 2000
    /// Names the `Host` header may carry besides an IP address, `localhost` and `host`; others get 421.
    public var allowedHosts: [String] = []
    /// Web origins (`http://example.com:3000`) whose pages may send state-changing requests, besides this
    /// server's own; a state-changing request with another `Origin`, or `Sec-Fetch-Site: cross-site`, gets 403.
    public var allowedOrigins: [String] = []

    /// The defaults above; set what differs.
    public init() {}
}
