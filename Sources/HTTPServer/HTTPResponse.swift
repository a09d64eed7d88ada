/// The answer to one request. `Content-Length` is always added by the server; do not set it.
public struct HTTPResponse: Sendable {
    /// The status code, 100...599. Anything else is sent as 500.
    public var status: Int
    /// Header fields added to the response in this order.
    public var headers: [(name: String, value: String)]
    /// The response body, copied when the response is queued.
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
