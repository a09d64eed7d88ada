/// The answer to one request. `Content-Length` is always added by the server; do not set it.
public struct HTTPResponse: Sendable {
    /// The status code, 100...599. Anything else is sent as 500.
    public var status: Int
    /// Header fields added to the response in this order.
    public var headers: [(name: String, value: String)]
    /// The response body, lent to libmicrohttpd when the response is queued (not copied; see `ResponseSender`).
    public var body: [UInt8]
    /// A body sent as it is produced instead of `body` (chunked, no `Content-Length`); see `HTTPStream`.
    public var stream: HTTPStream?
    /// Sent as `X-Request-Id` after `headers` (kept apart so that adding it copies no header list).
    public var requestID: String?

    /// The request id's header field.
    public static let requestIDField = KnownField.requestID.name

    /// Every header field as sent: `headers`, then the request id.
    public var sentHeaders: [(name: String, value: String)] {
        guard let requestID else { return headers }
        return headers + [(Self.requestIDField, requestID)]
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A streamed response: `stream` supplies the body.
    public init(status: Int, headers: [(name: String, value: String)] = [], stream: HTTPStream) {
        self.status = status
        self.headers = headers
        self.body = []
        self.stream = stream
    }
}
