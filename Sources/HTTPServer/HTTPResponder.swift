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
