/// One HTTP request as the responder sees it: fully received, body included.
public struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. `"GET"` or `"POST"`; a `HEAD` request arrives as `"GET"` (the server
    /// sends the answer's head without its body).
    public let method: String
    /// The percent-decoded path without the query, e.g. `"/v1/apps/a1"`.
    public let path: String
    /// The decoded query arguments. When a name repeats, the last value wins; a name without `=` maps to `""`.
    public let query: [String: String]
    /// The request headers in the order they arrived, names as sent.
    public let headers: [(name: String, value: String)]
    /// The request body; empty when there is none.
    public let body: [UInt8]
    /// The client's IP address; nil in process (no socket) or for a non-IP socket.
    public let client: ClientAddress?
    /// Where the known fields are among `headers`.
    let known: KnownFields

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
        self.headers = headers
        self.known = KnownFields(headers)
        self.body = body
        self.client = client
    }

    /// A request whose known fields were noted as its headers were collected.
    init(
        method: String, path: String, query: [String: String], headers: [(name: String, value: String)],
        known: KnownFields, body: [UInt8], client: ClientAddress?
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.known = known
        self.body = body
        self.client = client
    }

    /// The value of the first header that is `field`; `nil` when absent. An index, where `header(_: String)`
    /// compares names.
    public func header(_ field: KnownField) -> String? {
        known.index(of: field).map { headers[$0].value }
    }

    /// The value of the first header called `name`, compared without regard to ASCII case; `nil` when absent.
    public func header(_ name: String) -> String? {
        for header in headers where asciiCaseInsensitiveEquals(header.name, name) {
            return header.value
        }
        return nil
    }
}

/// Compares two strings byte by byte, folding ASCII letters only, as HTTP field names require. Strings of
/// different lengths (the usual case when looking a field up) are told apart without reading their bytes.
func asciiCaseInsensitiveEquals(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8, right = rhs.utf8
    guard left.count == right.count else { return false }
    if let equal = left.withContiguousStorageIfAvailable({ l in
        right.withContiguousStorageIfAvailable { r in
            for index in 0..<l.count where l[index] != r[index] && asciiLowercased(l[index]) != asciiLowercased(r[index]) {
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
