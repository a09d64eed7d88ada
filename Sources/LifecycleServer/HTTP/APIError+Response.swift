import HTTPServer
import LifecycleWire

extension APIError {
    /// The problem document as an answer: RFC 9457 `application/problem+json`.
    var response: HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/problem+json")] + headers, body: document)
    }
}
