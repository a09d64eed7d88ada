import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleWire

extension Route {
    /// The one declaration of each route: its path (as `api/openapi.yaml` writes it), whether it is also served
    /// under `/v1/namespaces/{ns}`, the access it needs, and one operation per method with its handler. The
    /// matcher reads the paths; dispatch, 405 and `Allow`, the middleware (`RequestMiddleware`), the metrics,
    /// access tokens and an import's policy read the rest. Adding a route is a case of `Route`, its row here
    /// and its handler; a test holds these rows and the spec's paths together.
    var declaration: RouteDeclaration {
        switch self {
        case .livez:
            RouteDeclaration(
                "/livez", access: .open,
                [.plain("GET") { _, _, _, done throws(APIError) in done(BuildInfo.liveAnswer) }])
        case .readyz:
            RouteDeclaration(
                "/readyz", access: .open,
                [.plain("GET") { service, _, _, done throws(APIError) in service.readyz(done) }])
        case .metrics:
            RouteDeclaration(
                "/metrics", access: .metrics,
                [.plain("GET") { service, _, _, done throws(APIError) in done(service.metricsResponse()) }])
        case .openapi:
            RouteDeclaration(
                "/v1/openapi.yaml", access: .open,
                [.plain("GET") { service, request, _, done throws(APIError) in done(service.openAPIResponse(request)) }]
            )
        case .eventTypes:
            RouteDeclaration(
                "/v1/event-types", access: .open,
                [
                    .plain("GET") { _, request, _, done throws(APIError) in
                        done(.read(EventCatalogueEncoder.body, request: request))
                    }
                ])
        case .dashboard:
            RouteDeclaration(
                "/", access: .open,
                [
                    .plain("GET") { service, request, _, done throws(APIError) in
                        done(try service.dashboardResponse(request, file: nil))
                    }
                ])
        case .dashboardAsset:
            RouteDeclaration(
                "/dashboard/{file}", access: .open,
                [
                    .plain("GET") { service, request, match, done throws(APIError) in
                        done(try service.dashboardResponse(request, file: match.id))
                    }
                ])
        case .reset:
            RouteDeclaration(
                "/v1/reset", access: .everything,
                [
                    .plain("POST", effect: .freeing) { service, _, _, done throws(APIError) in
                        try service.resetEverything(done)
                    }
                ])
        case .namespaces:
            RouteDeclaration(
                "/v1/namespaces", access: .namespaceList,
                [
                    .plain("GET") { service, request, _, done throws(APIError) in
                        done(try service.listNamespaces(request))
                    }
                ])
        case .namespace:
            RouteDeclaration(
                "/v1/namespaces/{ns}", access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, _, done throws(APIError) in
                        done(service.namespaceResponse(scope.space, request))
                    },
                    // Not scoped: it creates the namespace or changes its settings.
                    .plain("PUT") { service, request, match, done throws(APIError) in
                        try service.putNamespace(try match.requireNamespace(), request, done)
                    },
                    // Not gated: a frozen namespace's own deletion goes on (docs/API.md).
                    .scoped("DELETE", gated: false) { service, scope, _, _, done throws(APIError) in
                        try service.deleteNamespace(scope.space, done)
                    },
                ])
        case .namespaceReset:
            RouteDeclaration(
                "/v1/namespaces/{ns}/reset", access: .pathNamespace,
                [
                    .scoped("POST", effect: .freeing) { service, scope, _, _, done throws(APIError) in
                        service.resetNamespace(scope.space, done)
                    }
                ])
        case .changes:
            RouteDeclaration(
                "/v1/changes", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, _, done throws(APIError) in
                        try service.openChangeEventStream(request, feed: scope.space.changeFeed, done)
                    }
                ])
        case .devices:
            RouteDeclaration(
                "/v1/devices", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, _, done throws(APIError) in
                        done(try service.listDevices(scope, request))
                    },
                    .scoped("POST", imports: .createDevice) { service, scope, request, _, done throws(APIError) in
                        try service.createDevice(scope, request, done)
                    },
                ])
        case .device:
            RouteDeclaration(
                "/v1/devices/{id}", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownDevice) { service, scope, request, match, done throws(APIError) in
                        done(try service.getDevice(scope, try match.requireID(), request))
                    },
                    .scoped("DELETE", imports: .ownDevice) { service, scope, _, match, done throws(APIError) in
                        try service.deleteDevice(scope, try match.requireID(), done)
                    },
                ])
        case .deviceEvents:
            RouteDeclaration(
                "/v1/devices/{id}/events", namespaced: true, access: .pathNamespace,
                [
                    .scoped("POST", imports: .ownDevice) { service, scope, request, match, done throws(APIError) in
                        try service.postEvents(scope, request, device: try match.requireID(), done)
                    }
                ])
        case .deviceTimeline:
            RouteDeclaration(
                "/v1/devices/{id}/timeline", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownDevice) { service, scope, request, match, done throws(APIError) in
                        try service.readTimeline(scope, request, device: try match.requireID(), done)
                    }
                ])
        case .apps:
            RouteDeclaration(
                "/v1/apps", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, _, done throws(APIError) in
                        done(try service.listApps(scope, request))
                    },
                    .scoped("POST", imports: .createApp) { service, scope, request, _, done throws(APIError) in
                        try service.createApp(scope, request, done)
                    },
                ])
        case .app:
            RouteDeclaration(
                "/v1/apps/{id}", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownApp) { service, scope, request, match, done throws(APIError) in
                        done(try service.getApp(scope, try match.requireID(), request))
                    },
                    .scoped("DELETE", imports: .ownApp) { service, scope, _, match, done throws(APIError) in
                        try service.deleteApp(scope, try match.requireID(), done)
                    },
                ])
        case .appEvents:
            RouteDeclaration(
                "/v1/apps/{id}/events", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownApp) { service, scope, request, match, done throws(APIError) in
                        done(try service.possibleEvents(scope, request, app: try match.requireID()))
                    },
                    .scoped("POST", imports: .ownApp) { service, scope, request, match, done throws(APIError) in
                        try service.postEvents(scope, request, app: try match.requireID(), done)
                    },
                ])
        case .appCallbacks:
            RouteDeclaration(
                "/v1/apps/{id}/callbacks", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownApp) { service, scope, request, match, done throws(APIError) in
                        try service.readTimeline(scope, request, app: try match.requireID(), callbacksOnly: true, done)
                    }
                ])
        case .appTimeline:
            RouteDeclaration(
                "/v1/apps/{id}/timeline", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownApp) { service, scope, request, match, done throws(APIError) in
                        try service.readTimeline(scope, request, app: try match.requireID(), callbacksOnly: false, done)
                    }
                ])
        case .appNotifications:
            RouteDeclaration(
                "/v1/apps/{id}/notifications", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownApp) { service, scope, request, match, done throws(APIError) in
                        try service.readNotifications(scope, request, app: try match.requireID(), done)
                    }
                ])
        case .appVerify:
            RouteDeclaration(
                "/v1/apps/{id}/verify", namespaced: true, access: .pathNamespace,
                [
                    // Not gated: a verify reads, and goes on while its namespace is frozen; yet it is refused while
                    // draining, after a store failure and while the store is short of room, as changes are.
                    .scoped("POST", gated: false, imports: .ownApp) {
                        service, scope, request, match, done throws(APIError) in
                        try service.verifyCallbacks(scope, request, app: try match.requireID(), done)
                    }
                ])
        case .appExits:
            RouteDeclaration(
                "/v1/apps/{id}/exits", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET", imports: .ownApp) { service, scope, request, match, done throws(APIError) in
                        done(try service.exits(scope, request, app: try match.requireID()))
                    }
                ])
        case .appPendingCallback:
            RouteDeclaration(
                "/v1/apps/{id}/pending-callback", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, match, done throws(APIError) in
                        try service.readPendingCallback(scope, request, app: try match.requireID(), done)
                    },
                    // Not gated: the answer lets an input already accepted finish, while its namespace is frozen too.
                    .scoped("POST", gated: false) { service, scope, request, match, done throws(APIError) in
                        try service.answerPendingCallback(scope, request, app: try match.requireID(), done)
                    },
                ])
        case .appVersions:
            RouteDeclaration(
                "/v1/apps/{id}/versions", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, match, done throws(APIError) in
                        try service.compareVersions(scope, request, app: try match.requireID(), done)
                    }
                ])
        case .coverage:
            RouteDeclaration(
                "/v1/coverage", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, _, done throws(APIError) in
                        service.coverage(scope, request, done)
                    }
                ])
        case .export:
            RouteDeclaration(
                "/v1/export", namespaced: true, access: .pathNamespace,
                [
                    .scoped("GET") { service, scope, request, _, done throws(APIError) in
                        try service.exportScenario(scope, request, done)
                    }
                ])
        case .import:
            RouteDeclaration(
                "/v1/import", namespaced: true, access: .pathNamespace,
                [
                    // Not scoped: an import creates its namespace only when it succeeds (`install`).
                    .plain("POST") { service, request, match, done throws(APIError) in
                        try service.importScenario(request, match, done)
                    }
                ])
        case .unknown:
            RouteDeclaration("", access: .pathNamespace, [])
        }
    }
}
