/// A request the server refuses by itself, before or instead of calling the responder: what was refused,
/// and the limit or rule it broke. The server knows no problem documents; `HTTPResponder.response(to:)`
/// renders each refusal (status, body), and the server adds `Connection: close` where it closes.
public enum HTTPRefusal: Sendable, Equatable {
    /// The body is larger than `HTTPServerConfiguration.maxBodyBytes` (`limit`). `bytes` is what
    /// `Content-Length` declared, or nil for a chunked body, whose whole size is never read.
    case bodyTooLarge(bytes: UInt64?, limit: Int)
    /// The request target (path and query, as sent) is `bytes` long, more than `limit`.
    case targetTooLong(bytes: Int, limit: Int)
    /// The path as sent holds what its decoded form would misrepresent.
    case invalidPath(PathFault)
    /// The query has `count` parameters, more than `limit`.
    case tooManyQueryParameters(count: Int, limit: Int)
    /// The header fields take `bytes` (names, values and their separators), more than `limit`.
    case headerFieldsTooLarge(bytes: Int, limit: Int)
    /// The request has `count` `Host` fields.
    case severalHosts(count: Int)
    /// An HTTP/1.1 request without a `Host` field.
    case missingHost
    /// The `Host` names no name of this server (DNS rebinding, or a misdirected request); `allowed` lists
    /// the names it answers to besides any IP address.
    case misdirected(host: String, allowed: [String])
    /// A state-changing request from a web page at `origin`, which is neither the server's own nor one of
    /// `allowed`.
    case crossOrigin(origin: String, allowed: [String])
    /// A state-changing request a browser sent cross-site (`Sec-Fetch-Site: cross-site`) without an allowed
    /// `Origin`.
    case crossSite
    /// Several `Content-Length` fields, with these values. The connection is closed after the answer.
    case severalContentLengths([String])
    /// `Content-Length` together with `Transfer-Encoding`. The connection is closed after the answer.
    case contentLengthWithTransferEncoding
    /// A transfer coding other than `chunked` (the fields' values, joined). The connection is closed after
    /// the answer.
    case unsupportedTransferEncoding(String)
    /// A header field whose name, as libmicrohttpd read it, is not an HTTP token, or is a framing field's name
    /// with more after it: whitespace before the colon, or a folded line, which libmicrohttpd 0.9.75 joins
    /// into the name (`Transfer-Encoding:` then ` chunked` reads as `Transfer-Encodingchunked`). RFC 9112
    /// asks for a 400; a proxy in front could read the framing otherwise. The connection is closed after the
    /// answer.
    case malformedFieldName(String)
    /// A header field (this name) whose value holds a CR that does not end its line, or a NUL: a proxy in front
    /// could end the line or the value there and read what follows otherwise. The connection is closed after
    /// the answer.
    case malformedFieldValue(String)
    /// The server is stopping: the answer to a request parked when `HTTPServer.stop()` came, or to a stream
    /// that could not start. The connection is closed after the answer.
    case shuttingDown

    /// What the path held.
    public enum PathFault: Sendable, Equatable {
        /// `%00`.
        case encodedNUL
        /// `%2F` or `%2f`: one segment would become two.
        case encodedSlash
        /// A NUL byte as sent.
        case nulByte
    }

    /// Whether the server closes the connection after the answer (the body's boundary is unclear, or the
    /// server is stopping).
    var closesConnection: Bool {
        switch self {
        case .severalContentLengths, .contentLengthWithTransferEncoding, .unsupportedTransferEncoding,
            .malformedFieldName, .malformedFieldValue, .shuttingDown:
            return true
        default:
            return false
        }
    }
}
