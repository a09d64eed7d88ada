import Dispatch
import Foundation
package import HTTPServer
import Locking
import TestSupport

/// How a test's requests reach the service. Both give the same `Reply` for the same request, so a test
/// says which it needs and nothing else changes.
package enum Transport: Sendable {
    /// `respond(to:)` called directly: no socket, no HTTP parsing, no libmicrohttpd. What the HTTP layer
    /// does by itself (body and header limits, `Host` and `Origin`, `HEAD` without a body, event streams)
    /// is not there: tests of those use `live`.
    case inProcess
    /// A real `HTTPServer` on a free port, one connection per request.
    case live
}

/// Hands a request to a responder in process and waits for its answer (`InProcessExchange`).
package struct InProcessClient: Sendable {
    package let exchange: InProcessExchange
    /// How long a request may stay unanswered (a long poll's `wait` included) before the test fails.
    package var timeoutSeconds: Double

    package init(responder: any HTTPResponder, timeoutSeconds: Double = 20) {
        exchange = InProcessExchange(responder: responder)
        self.timeoutSeconds = timeoutSeconds
    }

    /// `target` is a path with an optional query, as a client sends it (`/v1/apps?limit=2`).
    package func exchange(method: String, target: String, headers: [(String, String)], body: [UInt8]) throws -> Reply {
        do {
            let answer = try exchange.exchange(
                method: method, target: target, headers: headers.map { (name: $0.0, value: $0.1) }, body: body,
                within: timeoutSeconds)
            return Reply(status: answer.status, headers: answer.headers, body: answer.body)
        } catch .eventStream {
            throw TestClientError(description: "\(method) \(target) answered with a stream: use Transport.live")
        } catch {
            throw TestClientError(description: "\(method) \(target): \(error)")
        }
    }
}

/// One request per connection (`Connection: close`), with a read timeout so a server that never
/// answers fails the test instead of hanging it.
package enum BlockingHTTPClient {
    package static func exchange(
        port: Int, method: String, path: String, headers: [(String, String)], body: [UInt8],
        timeoutSeconds: Int = 20
    ) throws -> Reply {
        let client = try TestHTTPClient(port: port, timeoutSeconds: timeoutSeconds)
        let response = try client.request(
            method: method, path: path, headers: [("Connection", "close")] + headers, body: body)
        return Reply(status: response.status, headers: response.headers, body: response.body)
    }
}
