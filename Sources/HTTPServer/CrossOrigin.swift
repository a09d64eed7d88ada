/// Cross-origin resource sharing for the origins the operator allows (`--allowed-origin`): a page served from
/// one of them may call the API and read its answers and streams. Any other origin gets no CORS header, so a
/// browser keeps its page from reading anything; `RequestPolicy` still refuses its changes.
enum CrossOrigin {
    /// Methods a preflight allows: those of the API (a route's own `405` says which it takes).
    static let allowedMethods = "GET, HEAD, POST, PUT, DELETE"
    /// Request headers a page may send besides the simple ones.
    static let allowedHeaders =
        "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID, X-Request-Id"
    /// Response headers a page may read besides the simple ones.
    static let exposedHeaders = "ETag, Location, Idempotent-Replayed, WWW-Authenticate, Allow, X-Request-Id"
    /// Seconds a browser may keep a preflight's answer.
    static let maxAge = "600"

    /// Whether the request is a preflight: `OPTIONS` with `Access-Control-Request-Method`.
    static func isPreflight(_ request: HTTPRequest) -> Bool {
        request.method == "OPTIONS" && request.header("Access-Control-Request-Method") != nil
    }

    /// The answer to a preflight from an allowed origin: `204`, nothing else done.
    static func preflightResponse(origin: String) -> HTTPResponse {
        HTTPResponse(
            status: 204,
            headers: [
                ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Methods", allowedMethods),
                ("Access-Control-Allow-Headers", allowedHeaders), ("Access-Control-Max-Age", maxAge),
                ("Vary", "Origin"),
            ])
    }

    /// `response` readable by a page of `origin` (an allowed one), streams included.
    static func allowing(_ origin: String, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers += [
            ("Access-Control-Allow-Origin", origin), ("Access-Control-Expose-Headers", exposedHeaders),
            ("Vary", "Origin"),
        ]
        return response
    }
}
