/// One HTTP request as the responder sees it: fully received, body included.
///
/// A request the server received reads its header fields from libmicrohttpd when asked (`header(_:)`), not
/// copied beforehand: they are valid until the request is answered. A responder that keeps a request past its
/// answer keeps `detached()`, which copies them.
public struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. `"GET"` or `"POST"`; a `HEAD` request arrives as `"GET"` (the server
    /// sends the answer's head without its body).
    public let method: String
    /// The percent-decoded path without the query, e.g. `"/v1/apps/a1"`.
    public let path: String
    /// The decoded query arguments. When a name repeats, the last value wins; a name without `=` maps to `""`.
    public let query: [String: String]
    /// The request body; empty when there is none.
    public let body: [UInt8]
    /// The client's IP address; nil in process (no socket) or for a non-IP socket.
    public let client: ClientAddress?
    /// The fields of a request made in process, and where its known fields are among them; empty for a received
    /// request, whose fields are read from `received` when asked.
    private let list: [(name: String, value: String)]
    private let known: KnownFields
    /// The request being served, whose fields libmicrohttpd holds; nil for a request made in process.
    private let received: RequestContext?

    public init(
        method: String,
        path: String,
        query: [String: String] = [:],
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        client: ClientAddress? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.list = headers
        self.known = KnownFields(headers)
        self.received = nil
        self.body = body
        self.client = client
    }

    /// The request `context` serves, its header fields read from it when asked.
    init(method: String, path: String, query: [String: String], received context: RequestContext, body: [UInt8]) {
        self.method = method
        self.path = path
        self.query = query
        self.list = []
        self.known = context.known
        self.received = context
        self.body = body
        self.client = context.client
    }

    /// The header fields in the order they arrived, names as sent (each one copied: a lookup of one field is
    /// `header(_:)`).
    public var headers: [(name: String, value: String)] {
        guard let received else { return list }
        return received.receivedFields { RequestFields.all(on: $0) }
    }

    /// The value of the first header that is `field`; `nil` when absent. Absent fields cost no lookup: which
    /// known fields a request has was noted as it arrived.
    public func header(_ field: KnownField) -> String? {
        guard let index = known.index(of: field) else { return nil }
        guard let received else { return list[index].value }
        return received.receivedFields { RequestFields.value(of: field, on: $0) }
    }

    /// The value of the first header called `name`, compared without regard to ASCII case; `nil` when absent.
    public func header(_ name: String) -> String? {
        if let received { return received.receivedFields { RequestFields.value(named: name, on: $0) } }
        for header in list where asciiCaseInsensitiveEquals(header.name, name) {
            return header.value
        }
        return nil
    }

    /// The same request with its header fields copied, to be read after it is answered.
    /// What tells whether the client has gone while the request waits for its answer; ask before answering, on
    /// the thread the responder was called on.
    public func departure() -> Departure {
        guard let received else { return Departure() }
        if let departure = received.departure { return departure }
        let departure = Departure()
        received.departure = departure
        return departure
    }

    public func detached() -> HTTPRequest {
        guard received != nil else { return self }
        return HTTPRequest(method: method, path: path, query: query, headers: headers, body: body, client: client)
    }
}

/// Compares two strings byte by byte, folding ASCII letters only, as HTTP field names require. Strings of
/// different lengths (the usual case when looking a field up) are told apart without reading their bytes.
func asciiCaseInsensitiveEquals(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8, right = rhs.utf8
    guard left.count == right.count else { return false }
    if let equal = left.withContiguousStorageIfAvailable({ l in
        right.withContiguousStorageIfAvailable { r in
            for index in 0..<l.count
            where l[index] != r[index] && asciiLowercased(l[index]) != asciiLowercased(r[index]) {
                return false
            }
            return true
        }
    }), let equal {
        return equal
    }
    for (l, r) in zip(left, right) where l != r && asciiLowercased(l) != asciiLowercased(r) {
        return false
    }
    return true
}

@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
}
