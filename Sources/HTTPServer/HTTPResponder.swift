import Dispatch
import Locking

/// Answers requests. `respond` is called on a libmicrohttpd thread and must not block for long.
///
/// Call `completion` exactly once: synchronously (fast path, the response is queued at once) or later
/// from any thread (the server then parks the connection with `MHD_suspend_connection` and resumes it
/// when completion is called; the response is queued from the handler call that follows the resume).
/// Calls after the first are ignored, and so are calls made after the server answered the request
/// itself (a 503 at stop) or after the client went away. A parked request has no timeout of its own:
/// a responder that may never complete must keep its own deadline.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void)

    /// The answer to a request the server refuses by itself (`HTTPRefusal`): its status and body, the one
    /// way the responder renders errors. Called on a libmicrohttpd thread; must not block. The server adds
    /// `Connection: close` where it closes the connection after the answer.
    func response(to refusal: HTTPRefusal) -> HTTPResponse
}

/// A responder driven in process, by code that is not an HTTP thread: the testing library, `lifecycled check`
/// (waiting on its own thread) and the embedded daemon (suspending). The first completion is the answer. A
/// body that ends by itself (`HTTPStream.isFinite`: an export) is read whole into `body`, as a client would
/// have received it; an event stream is left in `stream`.
extension HTTPResponder {
    /// The answer to `request`, waited for on this thread for at most `seconds` (its body included); nil when
    /// none came by then. Never call it on a thread the responder's completion may need.
    public func answer(to request: HTTPRequest, within seconds: Double) -> HTTPResponse? {
        let start = DispatchTime.now().uptimeNanoseconds
        let answered = DispatchSemaphore(value: 0)
        // The first answer is kept; once the wait is over (the `nil` fired at its end), a later answer's stream is
        // closed: nobody reads it.
        let answer = Protected<HTTPResponse?>(nil)
        let once = Once<HTTPResponse?> { response in
            answer.withLock { $0 = response }
            answered.signal()
        }
        respond(to: request) { response in
            if !once.fire(response) { response.stream?.abandon() }
        }
        if answered.wait(timeout: .now() + seconds) == .timedOut { once.fire(nil) }
        let response = answer.withLock { $0 }
        guard let response else { return nil }
        guard let stream = response.stream, stream.isFinite else { return response }
        let spent = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return stream.collect(within: max(0, seconds - spent)).map { response.collected($0) }
    }

    /// The answer to `request`, suspending until it comes (its body included).
    public func answer(to request: HTTPRequest) async -> HTTPResponse {
        // The answer is handed over under the lock, not through the continuation: the task reads it after taking
        // the lock the completion's thread released, an order ThreadSanitizer sees (a response made on another
        // queue, an export's stream, was reported read across the continuation alone).
        let answer = Protected<HTTPResponse?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once<HTTPResponse> { response in
                answer.withLock { $0 = response }
                continuation.resume()
            }
            respond(to: request) { response in
                if !once.fire(response) { response.stream?.abandon() }
            }
        }
        guard let response = answer.withLock({ $0 }) else { preconditionFailure("resumed without an answer") }
        guard let stream = response.stream, stream.isFinite else { return response }
        return response.collected(await stream.collect())
    }
}

extension HTTPResponse {
    /// This answer with its finite stream read in process: the body, or the answer the source gave instead.
    func collected(_ collected: HTTPStream.Collected) -> HTTPResponse {
        switch collected {
        case .whole(let body):
            var whole = self
            whole.stream = nil
            whole.body = body
            return whole
        case .cut(let instead):
            return instead
        case .closed:
            // Closed before it ended (it cannot be here: the caller reads the stream it was just given).
            var none = self
            none.stream = nil
            none.status = 500
            return none
        }
    }
}
