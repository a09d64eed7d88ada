import HTTPServer
import LifecycleApplication
import LifecycleWire

/// Everything the daemon knows of one route, declared once (`Route.declaration`, in `RouteTable.swift`): its
/// path, whether it is also served under `/v1/namespaces/{ns}`, the access it needs and its operations. The
/// matcher, dispatch (404, 405 and `Allow`), the middleware, the metrics, access tokens and an import's policy
/// all read it.
struct RouteDeclaration: Sendable {
    /// The path as the spec writes it: `{id}` (or `{file}`) the id the handler reads, `{ns}` the namespace's
    /// name, only ever as `/v1/namespaces/{ns}` at the start. Empty for `.unknown`, which no path matches.
    let path: StaticString
    /// Whether the route is also served under `/v1/namespaces/{ns}` (then a resource of that namespace;
    /// unprefixed, of `default`).
    let namespaced: Bool
    /// What the request touches, for access tokens.
    let access: RouteAccess
    /// One per method the route answers; any other method answers 405 with these in `Allow`. `HEAD` is
    /// answered as `GET` by the HTTP server, so a route with `GET` answers `HEAD` too.
    let operations: [Operation]

    init(_ path: StaticString, namespaced: Bool = false, access: RouteAccess, _ operations: [Operation]) {
        self.path = path
        self.namespaced = namespaced
        self.access = access
        self.operations = operations
    }

    /// The prefix of the routes of one namespace that only exist under it (`/v1/namespaces/{ns}`, `.../reset`).
    static let namespacePrefix: StaticString = "/v1/namespaces/{ns}"

    /// Whether the path is `/v1/namespaces/{ns}` or under it.
    var isUnderNamespacePrefix: Bool { path.description.hasPrefix(Self.namespacePrefix.description) }
}

/// What a route touches, for access tokens (`AccessScope` once the path's namespace is known).
enum RouteAccess: Sendable {
    /// Anyone, with or without a token.
    case open
    /// `/metrics`: admin only.
    case metrics
    /// The list of namespaces: any known token.
    case namespaceList
    /// Every namespace at once: admin only.
    case everything
    /// The namespace of the path (`default` when unprefixed): a token that covers it, its role deciding by
    /// method (`AccessRole.allows`: `read` only `GET`/`HEAD`).
    case pathNamespace
}

/// One operation of the API: a method on a route, what it is (a read or a change), whether an import may take
/// it, and what answers it.
struct Operation: Sendable {
    enum Handler: Sendable {
        /// Answers without a namespace (health, metrics, the spec, the dashboard, every namespace at once).
        case plain(@Sendable (LifecycleService, HTTPRequest, Route.Match, AnswerSink) throws(APIError) -> Void)
        /// Answers within the namespace of the path (`default` when unprefixed), found or created first.
        case scoped(
            @Sendable (LifecycleService, RequestScope, HTTPRequest, Route.Match, AnswerSink) throws(APIError) -> Void)
    }

    /// What an operation does to state, which decides the checks it passes (`RequestMiddleware`).
    enum Effect: Sendable {
        /// Changes nothing: answered while draining and after a store failure.
        case read
        /// A change: refused while draining, after a store failure, and while the store is short of room.
        case write
        /// A change that frees room (deletions, resets): as `write`, but it goes on while the store is short
        /// of room.
        case freeing
    }

    let method: String
    let effect: Effect
    /// Whether a change passes its namespace's write gate (refused while frozen, counted while under way).
    /// Only a `.scoped` change can: a `.plain` one has no namespace yet.
    let gated: Bool
    /// What an import's step may do with it (`ImportUse`, the application's `ImportSteps` deciding); nil: an
    /// import may not take it.
    let importUse: ImportUse?
    let handler: Handler

    /// `effect` and `gated` follow from the method unless given: `GET` reads, `DELETE` frees, any other method
    /// writes; a scoped change passes the gate.
    init(
        _ method: String, effect: Effect? = nil, gated: Bool? = nil, imports importUse: ImportUse? = nil,
        _ handler: Handler
    ) {
        self.method = method
        let effect = effect ?? (method == "GET" ? .read : method == "DELETE" ? .freeing : .write)
        self.effect = effect
        if case .scoped = handler {
            self.gated = gated ?? (effect != .read)
        } else {
            self.gated = false
        }
        self.importUse = importUse
        self.handler = handler
    }

    /// Whether the operation changes state (refused while draining and after a store failure).
    var isWrite: Bool { effect != .read }

    /// An operation answered without a namespace.
    static func plain(
        _ method: String, effect: Effect? = nil,
        _ handle: @escaping @Sendable (LifecycleService, HTTPRequest, Route.Match, AnswerSink) throws(APIError) -> Void
    ) -> Operation {
        Operation(method, effect: effect, .plain(handle))
    }

    /// An operation answered within the path's namespace.
    static func scoped(
        _ method: String, effect: Effect? = nil, gated: Bool? = nil, imports: ImportUse? = nil,
        _ handle:
            @escaping @Sendable (LifecycleService, RequestScope, HTTPRequest, Route.Match, AnswerSink)
            throws(APIError) -> Void
    ) -> Operation {
        Operation(method, effect: effect, gated: gated, imports: imports, .scoped(handle))
    }
}

extension Route {
    /// The route's declaration, read at its position (`declaration` makes a new one at each call).
    var declared: RouteDeclaration { Self.declarations[index] }

    /// Every route's declaration in the order of `allCases`.
    static let declarations: [RouteDeclaration] = allCases.map(\.declaration)

    /// The operations of the route; none for `.unknown`.
    var operations: [Operation] { declared.operations }

    /// The methods the route answers.
    var methods: [String] { operations.map(\.method) }

    /// Whether the route is a resource of one namespace: served under `/v1/namespaces/{ns}` (and unprefixed
    /// for `default`), or only under it.
    var isNamespaced: Bool { Self.facts[index].namespaced }

    /// Whether the route's path is under `/v1/`: the API proper, which is refused while the daemon recovers, and
    /// its changes while it drains or after a store failure. Read from the route, not the path's text, which may
    /// start with empty segments (`//v1/devices`) that matching skips.
    var isVersioned: Bool { Self.facts[index].versioned }

    /// What every request asks of its route, read from the declarations once, by position.
    struct Facts {
        let namespaced: Bool
        let versioned: Bool
        let access: RouteAccess
    }

    static let facts: [Facts] = declarations.map {
        Facts(
            namespaced: $0.namespaced || $0.isUnderNamespacePrefix, versioned: $0.path.description.hasPrefix("/v1/"),
            access: $0.access)
    }
}

extension Route.Match {
    /// What the request touches, for access tokens. Every resource path without a namespace is the namespace
    /// `default`; so is a path no route matches.
    var accessScope: AccessScope {
        switch Route.facts[route.index].access {
        case .open: .open
        case .metrics: .metrics
        case .everything: .everything
        case .namespaceList: .namespaceList
        case .pathNamespace: .namespace(namespace ?? NamespaceName.defaultName)
        }
    }
}
