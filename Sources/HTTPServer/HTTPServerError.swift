/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// The host is not an IP literal or `"localhost"`.
    case invalidHost(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// `start()` was called twice, or after `stop()`.
    case alreadyStarted
    /// The address could not be bound; `reason` is the system's explanation, e.g. "Address already in use".
    case cannotListen(host: String, port: Int, reason: String)
    /// An event loop's descriptors or thread could not be created; `reason` is the system's explanation.
    case cannotCreateEventLoop(reason: String)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "invalid host \"\(host)\": expected an IPv4 or IPv6 literal or \"localhost\""
        case .invalidPort(let port):
            return "invalid port \(port): expected 0...65535"
        case .alreadyStarted:
            return "the HTTP server was already started"
        case .cannotListen(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason)"
        case .cannotCreateEventLoop(let reason):
            return "cannot create an HTTP event loop: \(reason)"
        }
    }
}
