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
/// (waiting on its own thread) and the embedded daemon (suspending). The first completion is the answer.
extension HTTPResponder {
    /// The answer to `request`, waited for on this thread for at most `seconds`; nil when none came by then.
    /// Never call it on a thread the responder's completion may need.
    public func answer(to request: HTTPRequest, within seconds: Double) -> HTTPResponse? {
        let answered = DispatchSemaphore(value: 0)
        let answer = Protected<HTTPResponse?>(nil)
        respond(to: request) { response in
            let first = answer.withLock { answer -> Bool in
                guard answer == nil else { return false }
                answer = response
                return true
            }
            if first { answered.signal() }
        }
        guard answered.wait(timeout: .now() + seconds) == .success else { return nil }
        return answer.withLock { $0 }
    }

    /// The answer to `request`, suspending until it comes.
    public func answer(to request: HTTPRequest) async -> HTTPResponse {
        let once = Protected(false)
        return await withCheckedContinuation { continuation in
            respond(to: request) { response in
                let first = once.withLock { answered -> Bool in
                    defer { answered = true }
                    return !answered
                }
                if first { continuation.resume(returning: response) }
            }
        }
    }
}
