import HTTPServer
import LifecycleWire
import Locking

/// A request on its way through the middleware to its operation's handler.
struct RoutedRequest {
    let request: HTTPRequest
    let match: Route.Match
    /// One the daemon makes itself (an import's steps, in the namespace its request was allowed into; a seed),
    /// which no token needs to allow.
    let trusted: Bool
    /// The operation the route and method name, once `RoutingMiddleware` found it.
    var operation: Operation?
    /// The namespace a `.scoped` operation acts in, once `ScopeMiddleware` found (or created) it.
    var scope: RequestScope?
    /// Where the answer goes.
    var done: Completion
}

/// One cross-cutting step of every request, in the spirit of Hummingbird's `RouterMiddleware`: it may refuse
/// the request (throw), change what the next steps see, and act around them (`next`). The steps and their order
/// are `LifecycleService.middleware`; what applies to an operation is read from its declaration, never from its
/// route's name.
protocol RequestMiddleware: Sendable {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError)
}

extension LifecycleService {
    /// Every request's steps before its handler, in order. On the way back, its `Completion` leaves the write
    /// gate, counts the request (`lifecycled_http_requests_total`, the duration, the namespace's requests) and
    /// writes the access log, in that order.
    static let middleware: [any RequestMiddleware] = [
        AccessMiddleware(), RoutingMiddleware(), NamespaceNameMiddleware(), RecoveryMiddleware(), DrainingMiddleware(),
        StoreFailureMiddleware(), StorageMiddleware(), ScopeMiddleware(), WriteGateMiddleware(),
    ]

    /// Runs `routed` through the middleware from `position`, then its operation's handler.
    func run(_ routed: inout RoutedRequest, from position: Int = 0) throws(APIError) {
        guard position < Self.middleware.count else { return try handle(routed) }
        try Self.middleware[position].handle(&routed, self) { (routed: inout RoutedRequest) throws(APIError) in
            try run(&routed, from: position + 1)
        }
    }

    private func handle(_ routed: RoutedRequest) throws(APIError) {
        guard let operation = routed.operation else { throw .notFound("no resource at \(routed.request.path)") }
        switch operation.handler {
        case .plain(let handle): try handle(self, routed.request, routed.match, routed.done)
        case .scoped(let handle):
            guard let scope = routed.scope else { throw .notFound("no namespace in this path") }
            try handle(self, scope, routed.request, routed.match, routed.done)
        }
    }
}

/// 401 or 403 when the token does not allow the request (before anything else: a path that does not exist
/// is not told apart from one that does); notes the token's name for the access log.
struct AccessMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        let (refusal, token) = routed.trusted ? (nil, nil) : service.accessDecision(routed.request, match: routed.match)
        if service.logsAccess { routed.done.log(Completion.Logged(routed.request, token: token)) }
        if let refusal { throw refusal }
        try next(&routed)
    }
}

/// 404 for a path no route matches, 405 with `Allow` for a method the route does not declare.
struct RoutingMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        let operations = routed.match.route.operations
        guard !operations.isEmpty else {
            throw .notFound("no resource at \(routed.request.path); see /v1/openapi.yaml")
        }
        guard let operation = operations.first(where: { $0.method == routed.request.method }) else {
            throw .methodNotAllowed(routed.request.method, allowed: operations.map(\.method))
        }
        routed.operation = operation
        try next(&routed)
    }
}

/// 400 for a namespace's name in the path that no namespace may have.
struct NamespaceNameMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        if let name = routed.match.namespace, !NamespaceName.isValid(name) {
            throw NamespaceName.invalid(name)
        }
        try next(&routed)
    }
}

/// 503 for the API (`/v1/`) while the daemon recovers its data; the daemon's own requests (seeds) apply once
/// the journal is recovered, before it is ready.
struct RecoveryMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        if routed.match.route.isVersioned, !routed.trusted, service.currentPhase == .recovering {
            throw .notReady("the daemon is recovering its data; try again shortly")
        }
        try next(&routed)
    }
}

/// 503 for a change while the daemon drains.
struct DrainingMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        if routed.match.route.isVersioned, routed.operation?.isWrite == true, service.currentPhase == .draining {
            throw .notReady("the daemon is shutting down and takes no more changes")
        }
        try next(&routed)
    }
}

/// 503 for a change once the store has failed to make one durable.
struct StoreFailureMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        if routed.match.route.isVersioned, routed.operation?.isWrite == true,
            service.storeFailure.withLock({ $0 }) != nil
        {
            throw .storeFailed
        }
        try next(&routed)
    }
}

/// 507 for a change while the store is short of room; deletions and resets (`.freeing`) free room, so they
/// go on.
struct StorageMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        if routed.match.route.isVersioned, routed.operation?.effect == .write, let refusal = service.storageRefusal() {
            throw refusal
        }
        try next(&routed)
    }
}

/// Finds the namespace of a `.scoped` operation (`requestScope`: a `POST` creates a missing one).
struct ScopeMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        if case .scoped = routed.operation?.handler {
            routed.scope = try service.requestScope(routed.match, routed.request)
        }
        try next(&routed)
    }
}

/// A `gated` change passes its namespace's gate: refused while it is frozen (409), counted while under way
/// (until answered). The daemon's own requests (an import's steps, its rollback) are part of a change that
/// passed it already.
struct WriteGateMiddleware: RequestMiddleware {
    func handle(
        _ routed: inout RoutedRequest, _ service: LifecycleService,
        next: (inout RoutedRequest) throws(APIError) -> Void
    ) throws(APIError) {
        guard !routed.trusted, routed.operation?.gated == true, let scope = routed.scope else {
            return try next(&routed)
        }
        let writes = scope.space.writes
        guard writes.enter() else { throw .frozen(scope.space.name) }
        // The request's own completion, if the handler throws, answers without leaving the gate: left here.
        var inner = routed
        inner.done = routed.done.leaving(writes)
        do {
            try next(&inner)
        } catch {
            writes.leave()
            throw error
        }
    }
}
