/// A request handed to a responder in this process, as the HTTP server would hand it, and its answer as a
/// client would read it: `HEAD` answered as `GET` without its body, a body that ends by itself (an export)
/// read whole, an event stream refused (only a socket reads one). The one in-process transport: the testing
/// library, `lifecycled check`, an import's steps and the embedded daemon all go through it.
public struct InProcessExchange: Sendable {
    /// What a client reads: the status, the headers as sent, the body.
    public struct Answer: Sendable {
        public let status: Int
        public let headers: [(name: String, value: String)]
        public let body: [UInt8]
    }

    /// Why a request has no answer to read.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Nothing came within the time given (a long poll's `wait` included).
        case notAnswered(seconds: Double)
        /// The answer is an event stream, which only a client on a socket reads.
        case eventStream

        public var description: String {
            switch self {
            case .notAnswered(let seconds): "no answer within \(seconds.formatted) s"
            case .eventStream: "the answer is an event stream, which only a client over HTTP reads"
            }
        }
    }

    public let responder: any HTTPResponder

    public init(responder: any HTTPResponder) {
        self.responder = responder
    }

    /// `target` is a path with an optional query, as a client sends it (`/v1/apps?limit=2`). Waits on this
    /// thread for at most `seconds`: never call it on a thread the responder's completion may need.
    public func exchange(
        method: String, target: String, headers: [(name: String, value: String)], body: [UInt8], within seconds: Double
    ) throws(Failure) -> Answer {
        guard let response = responder.answer(to: Self.request(method, target, headers, body), within: seconds) else {
            throw .notAnswered(seconds: seconds)
        }
        return try Self.read(response, method: method)
    }

    /// The same, suspending until the answer comes.
    public func exchange(
        method: String, target: String, headers: [(name: String, value: String)], body: [UInt8]
    ) async throws(Failure) -> Answer {
        try Self.read(await responder.answer(to: Self.request(method, target, headers, body)), method: method)
    }

    private static func request(
        _ method: String, _ target: String, _ headers: [(name: String, value: String)], _ body: [UInt8]
    ) -> HTTPRequest {
        HTTPRequest(method: method == "HEAD" ? "GET" : method, target: target, headers: headers, body: body)
    }

    private static func read(_ response: HTTPResponse, method: String) throws(Failure) -> Answer {
        guard response.stream == nil else {
            response.stream?.abandon()
            throw .eventStream
        }
        return Answer(
            status: response.status, headers: response.sentHeaders, body: method == "HEAD" ? [] : response.body)
    }
}

extension Double {
    /// `60` rather than `60.0`.
    fileprivate var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
