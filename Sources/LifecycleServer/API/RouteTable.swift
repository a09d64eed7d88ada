import HTTPServer
import LifecycleCore
import LifecycleWire

/// One operation of the API: a method on a route, and what answers it.
struct Operation: Sendable {
    enum Handler: Sendable {
        /// Answers without a namespace (health, metrics, the spec, the dashboard, every namespace at once).
        case plain(@Sendable (LifecycleService, HTTPRequest, Route.Match, Completion) throws(APIError) -> Void)
        /// Answers within the namespace of the path (`default` when unprefixed), found or created first.
        case scoped(
            @Sendable (LifecycleService, RequestScope, HTTPRequest, Route.Match, Completion) throws(APIError) -> Void)
    }

    let method: String
    let handler: Handler

    /// Whether the operation changes state (refused while draining and after a store failure).
    var isWrite: Bool { method != "GET" }
}

extension Route {
    /// Every operation of the API, by route: the one place where a path and a method meet their handler.
    /// A route's methods (and a 405's `allowed`) are the methods listed here.
    static let table: [Route: [Operation]] = [
        .livez: [get { _, _, _, done throws(APIError) in done(BuildInfo.liveAnswer) }],
        .readyz: [get { service, _, _, done throws(APIError) in service.readyz(done) }],
        .metrics: [get { service, _, _, done throws(APIError) in done(service.metricsResponse()) }],
        .openapi: [get { service, request, _, done throws(APIError) in done(service.openAPIResponse(request)) }],
        .eventTypes: [get { _, request, _, done throws(APIError) in done(.read(EventCatalogueEncoder.body, request: request)) }],
        .dashboard: [get { service, request, _, done throws(APIError) in done(try service.dashboardResponse(request, file: nil)) }],
        .dashboardAsset: [
            get { service, request, match, done throws(APIError) in done(try service.dashboardResponse(request, file: match.id)) }
        ],
        .reset: [.init(method: "POST", handler: .plain { service, _, _, done throws(APIError) in try service.resetEverything(done) })],
        .namespaces: [get { service, request, _, done throws(APIError) in done(try service.listNamespaces(request)) }],
        .namespace: [
            scoped("GET") { service, scope, request, _, done throws(APIError) in done(service.namespaceResponse(scope.space, request)) },
            .init(
                method: "PUT",
                handler: .plain { service, request, match, done throws(APIError) in
                    try service.putNamespace(try match.requireNamespace(), request, done)
                }),
            scoped("DELETE") { service, scope, _, _, done throws(APIError) in try service.deleteNamespace(scope.space, done) },
        ],
        .namespaceReset: [scoped("POST") { service, scope, _, _, done throws(APIError) in service.resetNamespace(scope.space, done) }],
        .changes: [
            scoped("GET") { service, scope, request, _, done throws(APIError) in
                try service.streamChanges(request, feed: scope.space.changeFeed, done)
            }
        ],
        .devices: [
            scoped("GET") { service, scope, request, _, done throws(APIError) in done(try service.listDevices(scope, request)) },
            scoped("POST") { service, scope, request, _, done throws(APIError) in try service.createDevice(scope, request, done) },
        ],
        .device: [
            scoped("GET") { service, scope, request, match, done throws(APIError) in
                done(try service.getDevice(scope, try match.requireID(), request))
            },
            scoped("DELETE") { service, scope, _, match, done throws(APIError) in
                try service.deleteDevice(scope, try match.requireID(), done)
            },
        ],
        .deviceEvents: [
            scoped("POST") { service, scope, request, match, done throws(APIError) in
                try service.postEvents(scope, request, device: try match.requireID(), done)
            }
        ],
        .deviceTimeline: [
            scoped("GET") { service, scope, request, match, done throws(APIError) in
                try service.readTimeline(scope, request, device: try match.requireID(), done)
            }
        ],
        .apps: [
            scoped("GET") { service, scope, request, _, done throws(APIError) in done(try service.listApps(scope, request)) },
            scoped("POST") { service, scope, request, _, done throws(APIError) in try service.createApp(scope, request, done) },
        ],
        .app: [
            scoped("GET") { service, scope, request, match, done throws(APIError) in
                done(try service.getApp(scope, try match.requireID(), request))
            },
            scoped("DELETE") { service, scope, _, match, done throws(APIError) in
                try service.deleteApp(scope, try match.requireID(), done)
            },
        ],
        .appEvents: [
            scoped("GET") { service, scope, request, match, done throws(APIError) in
                done(try service.possibleEvents(scope, request, app: try match.requireID()))
            },
            scoped("POST") { service, scope, request, match, done throws(APIError) in
                try service.postEvents(scope, request, app: try match.requireID(), done)
            }
        ],
        .appCallbacks: [
            scoped("GET") { service, scope, request, match, done throws(APIError) in
                try service.readTimeline(scope, request, app: try match.requireID(), callbacksOnly: true, done)
            }
        ],
        .appTimeline: [
            scoped("GET") { service, scope, request, match, done throws(APIError) in
                try service.readTimeline(scope, request, app: try match.requireID(), callbacksOnly: false, done)
            }
        ],
        .appNotifications: [
            scoped("GET") { service, scope, request, match, done throws(APIError) in
                try service.readNotifications(scope, request, app: try match.requireID(), done)
            }
        ],
        .appVerify: [
            scoped("POST") { service, scope, request, match, done throws(APIError) in
                try service.verifyCallbacks(scope, request, app: try match.requireID(), done)
            }
        ],
        .export: [
            scoped("GET") { service, scope, request, _, done throws(APIError) in try service.exportScenario(scope, request, done) }
        ],
        // Not scoped: an import creates its namespace only when it succeeds (`install`).
        .import: [
            .init(
                method: "POST",
                handler: .plain { service, request, match, done throws(APIError) in
                    try service.importScenario(request, match, done)
                })
        ],
    ]

    /// The operations of the route; none for `.unknown`. Found by the route's position, not its hash (a
    /// route hashes its raw value, a string).
    var operations: [Operation] { Self.operationsByIndex[index] }

    /// `table` in the order of `allCases`.
    private static let operationsByIndex: [[Operation]] = allCases.map { table[$0] ?? [] }

    /// The methods the route answers.
    var methods: [String] { operations.map(\.method) }

    private static func get(
        _ handle: @escaping @Sendable (LifecycleService, HTTPRequest, Route.Match, Completion) throws(
            APIError
        ) -> Void
    ) -> Operation {
        Operation(method: "GET", handler: .plain(handle))
    }

    private static func scoped(
        _ method: String,
        _ handle: @escaping @Sendable (LifecycleService, RequestScope, HTTPRequest, Route.Match, Completion)
            throws(APIError) -> Void
    ) -> Operation {
        Operation(method: method, handler: .scoped(handle))
    }
}

extension Route.Match {
    /// The id the path names. Every route with an id in its path has one once matched; a route without
    /// answers 404 rather than trapping.
    func requireID() throws(APIError) -> String {
        guard let id else { throw .notFound("no resource at this path") }
        return id
    }

    /// The namespace the path names (`/v1/namespaces/{ns}`).
    func requireNamespace() throws(APIError) -> String {
        guard let namespace else { throw .notFound("no namespace in this path") }
        return namespace
    }
}
