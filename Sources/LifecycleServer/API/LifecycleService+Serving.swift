import Dispatch
public import HTTPServer
import LifecycleApplication
import LifecycleWire
import Synchronization

/// The service as the daemon drives it: recovered (then seeded), then answering requests through the
/// middleware (`RequestMiddleware`) to the handler their route declares (`Route.declaration`).
extension LifecycleService {
    /// Rebuilds every device from the journal (`Application.recover`), applies the `--seed` scenarios, then
    /// opens for requests. Returns how many records were replayed.
    @discardableResult
    public func recover() throws -> Int {
        try application.recover(seeding: { try applySeeds() })
    }

    public func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        respond(to: request, trusted: false, completion: completion)
    }

    /// Answers `request`; `trusted`: one the daemon makes itself (an import's steps, in the namespace its
    /// request was allowed into; a seed), which no token needs to allow. The request goes through
    /// `RequestMiddleware`'s steps (`run`) to the handler its route declares (`Route.declaration`).
    func respond(to request: HTTPRequest, trusted: Bool, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = DispatchTime.now().uptimeNanoseconds
        let match = Route.match(request.path)
        inFlight.add(1, ordering: .relaxed)
        var routed = RoutedRequest(
            done: AnswerSink(
                service: self, started: started, match: match, namespaced: match.route.isNamespaced,
                requestID: RequestID.of(request), send: completion))
        do throws(APIError) {
            try run(&routed, request, match, trusted: trusted)
        } catch {
            routed.done(error.response)
        }
    }
}
