import HTTPServer
import LifecycleApplication
import LifecycleWire
import Locking

/// What the middleware learn of a request on its way to its operation's handler (the request, its match and
/// whether it is trusted are passed beside it, never copied: this runs for every request).
struct RoutedRequest {
    /// The handler of the operation the route and method name, once `RequestMiddleware.routing` found it, and
    /// what the other steps read of that operation (kept apart: copying an `Operation` costs reference counts).
    var handler: Operation.Handler?
    var effect = Operation.Effect.read
    var gated = false
    /// The namespace a `.scoped` operation acts in, once `RequestMiddleware.scope` found (or created) it.
    var scope: RequestScope?
    /// Where the answer goes.
    var done: AnswerSink
}

/// One cross-cutting step of every request before its handler, in the spirit of Hummingbird's middleware: it may
/// refuse the request (throw) or add to what the next steps and the handler see. The steps are the cases, run
/// in the order `LifecycleService.run` calls them; what applies to an operation is read from its declaration
/// (`Route.declaration`), never from its route's name. A step that must act once the request is answered does it through the request's `AnswerSink`
/// (the write gate is left there, answered or refused), which on the way back leaves the gate, counts the
/// request (`lifecycled_http_requests_total`, the duration, the namespace's requests) and writes the access
/// log, in that order. Steps are cases rather than values of a protocol: this runs for every request, and a
/// `switch` costs no dynamic dispatch.
enum RequestMiddleware {
    /// 401 or 403 when the token does not allow the request (before anything else: a path that does not exist
    /// is not told apart from one that does); notes the token's name for the access log.
    case access
    /// 404 for a path no route matches, 405 with `Allow` for a method the route does not declare.
    case routing
    /// 400 for a namespace's name in the path that no namespace may have.
    case namespaceName
    /// 503 for the API (`/v1/`) while the daemon recovers its data; the daemon's own requests (seeds) apply once
    /// the journal is recovered, before it is ready.
    case recovery
    /// 503 for a change while the daemon drains.
    case draining
    /// 503 for a change once the store has failed to make one durable.
    case storeFailure
    /// 507 for a change while the store is short of room; deletions and resets (`.freeing`) free room, so they
    /// go on.
    case storage
    /// Finds the namespace of a `.scoped` operation (`requestScope`: a `POST` creates a missing one).
    case scope
    /// A `gated` change passes its namespace's gate: refused while it is frozen (409), counted while under way,
    /// until answered. The daemon's own requests (an import's steps, its rollback) are part of a change that
    /// passed it already.
    case writeGate

    /// `trusted`: a request the daemon makes itself (an import's steps, in the namespace its request was allowed
    /// into; a seed), which no token needs to allow.
    @inline(__always)
    func handle(
        _ routed: inout RoutedRequest, _ request: HTTPRequest, _ match: Route.Match, trusted: Bool,
        _ service: LifecycleService
    ) throws(APIError) {
        switch self {
        case .access:
            let (refusal, token) = trusted ? (nil, nil) : service.accessDecision(request, match: match)
            if service.logsAccess { routed.done.log(AnswerSink.Logged(request, token: token)) }
            if let refusal { throw refusal }
        case .routing:
            let operations = match.route.operations
            guard !operations.isEmpty else {
                throw .notFound("no resource at \(request.path); see /v1/openapi.yaml")
            }
            guard let operation = operations.first(where: { $0.method == request.method }) else {
                throw .methodNotAllowed(request.method, allowed: operations.map(\.method))
            }
            routed.handler = operation.handler
            routed.effect = operation.effect
            routed.gated = operation.gated
        case .namespaceName:
            if let name = match.namespace, !NamespaceName.isValid(name) { throw NamespaceName.invalid(name) }
        case .recovery:
            if match.route.isVersioned, !trusted, service.application.currentPhase == .recovering {
                throw .notReady("the daemon is recovering its data; try again shortly")
            }
        case .draining:
            if match.route.isVersioned, routed.effect != .read, service.application.currentPhase == .draining {
                throw .notReady("the daemon is shutting down and takes no more changes")
            }
        case .storeFailure:
            if match.route.isVersioned, routed.effect != .read,
                service.application.storeFailure.withLock({ $0 }) != nil
            {
                throw .storeFailed
            }
        case .storage:
            if match.route.isVersioned, routed.effect == .write, let refusal = service.application.storageRefusal() {
                throw refusal
            }
        case .scope:
            if case .scoped = routed.handler {
                routed.scope = try service.requestScope(match, request)
            }
        case .writeGate:
            guard !trusted, routed.gated, let scope = routed.scope else { return }
            let writes = scope.space.writes
            guard writes.enter() else { throw .frozen(scope.space.name) }
            // Left when the request is answered, by its handler or, if the handler throws, with the error.
            routed.done = routed.done.leaving(writes)
        }
    }
}

extension LifecycleService {
    /// Runs `routed` through the steps of `RequestMiddleware`, in order, then its operation's handler.
    func run(
        _ routed: inout RoutedRequest, _ request: HTTPRequest, _ match: Route.Match, trusted: Bool
    ) throws(APIError) {
        // The chain, in order: written out rather than looped over, so that each step is inlined with what the
        // others found (a loop over the steps cost about 300 instructions a request).
        try RequestMiddleware.access.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.routing.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.namespaceName.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.recovery.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.draining.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.storeFailure.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.storage.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.scope.handle(&routed, request, match, trusted: trusted, self)
        try RequestMiddleware.writeGate.handle(&routed, request, match, trusted: trusted, self)
        guard let handler = routed.handler else { throw .notFound("no resource at \(request.path)") }
        switch handler {
        case .plain(let handle): try handle(self, request, match, routed.done)
        case .scoped(let handle):
            guard let scope = routed.scope else { throw .notFound("no namespace in this path") }
            try handle(self, scope, request, match, routed.done)
        }
    }
}
