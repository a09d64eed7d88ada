import HTTPServer
import LifecycleCore
import LifecycleWire

extension APIError {
    /// A request the HTTP layer refused by itself, as the client sees it: what was wrong and what is allowed,
    /// with the limit where there is one. The option names are the daemon's (`lifecycled --help`).
    init(_ refusal: HTTPRefusal) {
        switch refusal {
        case .bodyTooLarge(let bytes, let limit):
            let size = bytes.map { "the body is \($0) bytes" } ?? "the chunked body is longer than the limit"
            self.init(
                .payloadTooLarge, "\(size); a body may be at most \(limit) bytes (--max-body-bytes)",
                extra: ["limit": .number(Double(limit))])
        case .targetTooLong(let bytes, let limit):
            self.init(
                .uriTooLong, "the request target (path and query) is \(bytes) bytes; it may be at most \(limit)",
                extra: ["limit": .number(Double(limit))])
        case .invalidPath(let fault):
            let found =
                switch fault {
                case .encodedNUL: "%00 (an encoded NUL)"
                case .encodedSlash: "%2F (an encoded /)"
                case .nulByte: "a NUL byte"
                }
            self.init(.invalidPath, "the path contains \(found); a path segment may contain neither NUL nor /")
        case .tooManyQueryParameters(let count, let limit):
            self.init(
                .tooManyQueryParameters, "the query has \(count) parameters; it may have at most \(limit)",
                extra: ["limit": .number(Double(limit))])
        case .headerFieldsTooLarge(let bytes, let limit):
            self.init(
                .headerFieldsTooLarge, "the header fields are \(bytes) bytes; together they may be at most \(limit)",
                extra: ["limit": .number(Double(limit))])
        case .severalHosts(let count):
            self.init(.ambiguousHost, "the request has \(count) Host fields; it must have exactly one")
        case .missingHost:
            self.init(.missingHost, "an HTTP/1.1 request must have a Host field naming this daemon")
        case .misdirected(let host, let allowed):
            self.init(
                .misdirectedRequest,
                "the Host \(host) does not name this daemon; it answers to any IP address and to "
                    + "\(allowed.joined(separator: ", ")) (more with --allowed-host)",
                extra: ["allowed": .array(allowed.map(JSONValue.string))])
        case .crossOrigin(let origin, let allowed):
            self.init(
                .crossOriginRequest,
                "a request that changes something may not come from the web page at \(origin); only the daemon's "
                    + "own origin and those given with --allowed-origin may send one",
                extra: allowed.isEmpty ? [:] : ["allowed": .array(allowed.map(JSONValue.string))])
        case .crossSite:
            self.init(
                .crossOriginRequest,
                "a request that changes something may not be sent cross-site by a browser (Sec-Fetch-Site: "
                    + "cross-site); send it from the daemon's own origin or one given with --allowed-origin")
        case .severalContentLengths(let values):
            self.init(
                .ambiguousContentLength,
                "the request has \(values.count) Content-Length fields (\(values.joined(separator: ", "))); "
                    + "it may have one")
        case .contentLengthWithTransferEncoding:
            self.init(
                .ambiguousContentLength,
                "the request has both Content-Length and Transfer-Encoding; it may have one of them")
        case .malformedFieldName(let name):
            self.init(
                .ambiguousContentLength,
                "the header field name \(HTTPRequest.logged(name)) is not a token: whitespace before the colon or "
                    + "a folded line, which a proxy could read otherwise; send each field on one line as name: value")
        case .malformedFieldValue(let name):
            self.init(
                .ambiguousContentLength,
                "the value of the header field \(HTTPRequest.logged(name)) holds a CR that does not end its line, or a "
                    + "NUL, which a proxy could read otherwise; a field value may hold neither")
        case .unsupportedTransferEncoding(let codings):
            self.init(
                .unsupportedTransferEncoding,
                "the transfer coding \(codings) is not supported; only chunked is",
                extra: ["allowed": ["chunked"]])
        case .shuttingDown:
            self.init(.notReady, "the daemon is shutting down; retry once it is back")
        }
    }
}
