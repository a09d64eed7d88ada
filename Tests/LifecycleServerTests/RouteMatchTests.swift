import Testing

@testable import LifecycleServer

/// `Route.match` reads the path's bytes: a literal matches a whole segment and nothing else, empty segments
/// are skipped, and an id or a namespace's name is taken as its bytes are, never decoded again.
@Suite("Route matching on the path's bytes")
struct RouteMatchTests {
    /// What a path should match: the route, the id and the namespace's name.
    struct Expected: CustomTestStringConvertible, Sendable {
        var path: String
        var route: Route
        var id: String? = nil
        var namespace: String? = nil

        var testDescription: String { path }
    }

    private func expectMatch(_ expected: Expected, sourceLocation: SourceLocation = #_sourceLocation) {
        let match = Route.match(expected.path)
        #expect(match.route == expected.route, "\(expected.path)", sourceLocation: sourceLocation)
        #expect(match.id == expected.id, "\(expected.path)", sourceLocation: sourceLocation)
        #expect(match.namespace == expected.namespace, "\(expected.path)", sourceLocation: sourceLocation)
    }

    /// One path written exactly as each route's, so every route is reached and each literal is tried.
    static let exactPaths: [Expected] = [
        .init(path: "/", route: .dashboard),
        .init(path: "/dashboard/app.js", route: .dashboardAsset, id: "app.js"),
        .init(path: "/livez", route: .livez),
        .init(path: "/readyz", route: .readyz),
        .init(path: "/metrics", route: .metrics),
        .init(path: "/v1/openapi.yaml", route: .openapi),
        .init(path: "/v1/event-types", route: .eventTypes),
        .init(path: "/v1/reset", route: .reset),
        .init(path: "/v1/changes", route: .changes),
        .init(path: "/v1/export", route: .export),
        .init(path: "/v1/import", route: .import),
        .init(path: "/v1/devices", route: .devices),
        .init(path: "/v1/devices/d1", route: .device, id: "d1"),
        .init(path: "/v1/devices/d1/events", route: .deviceEvents, id: "d1"),
        .init(path: "/v1/devices/d1/timeline", route: .deviceTimeline, id: "d1"),
        .init(path: "/v1/apps", route: .apps),
        .init(path: "/v1/apps/a1", route: .app, id: "a1"),
        .init(path: "/v1/apps/a1/events", route: .appEvents, id: "a1"),
        .init(path: "/v1/apps/a1/callbacks", route: .appCallbacks, id: "a1"),
        .init(path: "/v1/apps/a1/timeline", route: .appTimeline, id: "a1"),
        .init(path: "/v1/apps/a1/notifications", route: .appNotifications, id: "a1"),
        .init(path: "/v1/apps/a1/verify", route: .appVerify, id: "a1"),
        .init(path: "/v1/apps/a1/exits", route: .appExits, id: "a1"),
        .init(path: "/v1/namespaces/team-a/apps/a1/exits", route: .appExits, id: "a1", namespace: "team-a"),
        .init(path: "/v1/apps/a1/pending-callback", route: .appPendingCallback, id: "a1"),
        .init(
            path: "/v1/namespaces/team-a/apps/a1/pending-callback", route: .appPendingCallback, id: "a1",
            namespace: "team-a"),
        .init(path: "/v1/apps/a1/versions", route: .appVersions, id: "a1"),
        .init(path: "/v1/namespaces/team-a/apps/a1/versions", route: .appVersions, id: "a1", namespace: "team-a"),
        .init(path: "/v1/coverage", route: .coverage),
        .init(path: "/v1/namespaces/team-a/coverage", route: .coverage, namespace: "team-a"),
        .init(path: "/v1/namespaces", route: .namespaces),
        .init(path: "/v1/namespaces/team-a", route: .namespace, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a/reset", route: .namespaceReset, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a/changes", route: .changes, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a/export", route: .export, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a/apps/a1/verify", route: .appVerify, id: "a1", namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a/devices/d1/timeline", route: .deviceTimeline, id: "d1", namespace: "team-a"),
    ]

    @Test("A path written as a route's matches it", arguments: exactPaths)
    func anExactPathMatches(expected: Expected) {
        expectMatch(expected)
    }

    @Test("Every route but unknown has a path above")
    func everyRouteIsCovered() {
        let covered = Set(Self.exactPaths.map(\.route))
        #expect(covered == Set(Route.allCases).subtracting([.unknown]))
    }

    /// A literal followed by more bytes in the same segment is another segment: no route, no id, no namespace.
    @Test(
        "A literal with more bytes after it in its segment does not match",
        arguments: [
            "/v1/namespacesX", "/v1/namespacesX/", "/v1/namespacesX/apps", "/v1/namespaces-a/apps/a1", "/v1/devicesX",
            "/v1/devicesX/d1", "/v1/apps/a1/eventsX", "/v1/namespaces/team-a/resetX", "/v1/openapi.yamlX", "/livezz",
            "/dashboardX/app.js", "/v1X/devices", "/v12/devices",
        ])
    func aLongerSegmentDoesNotMatch(path: String) {
        expectMatch(Expected(path: path, route: .unknown))
    }

    /// A segment that is the start of a literal (or differs from it only in case) is not that literal.
    @Test(
        "A prefix of a literal does not match",
        arguments: [
            "/v1/dev", "/v1/dev/d1", "/v1/device/d1", "/v1/app/a1/events", "/v1/apps/a1/event", "/v1/apps/a1/call",
            "/v1/namespace", "/v1/namespace/team-a", "/v1/namespaces/team-a/rese", "/v1/namespaces/team-a/ap/a1",
            "/v1/open", "/v1", "/v", "/live", "/dash/app.js", "/V1/devices", "/v1/Devices", "/LIVEZ",
        ])
    func aPrefixDoesNotMatch(path: String) {
        expectMatch(Expected(path: path, route: .unknown))
    }

    /// An empty segment is no segment, before the namespace's name and after it alike: what follows takes its
    /// place, and a trailing slash changes nothing.
    static let emptySegments: [Expected] = [
        .init(path: "//", route: .dashboard),
        .init(path: "///livez", route: .livez),
        .init(path: "/livez/", route: .livez),
        .init(path: "/v1//devices", route: .devices),
        .init(path: "/v1/devices/", route: .devices),
        .init(path: "/v1/devices/d1/", route: .device, id: "d1"),
        .init(path: "//v1/apps//a1///events//", route: .appEvents, id: "a1"),
        .init(path: "/v1/reset/", route: .reset),
        .init(path: "/dashboard//app.js", route: .dashboardAsset, id: "app.js"),
        // The id's segment left empty: the next segment is read as the id.
        .init(path: "/v1/apps//events", route: .app, id: "events"),
        .init(path: "/v1/namespaces/", route: .namespaces),
        .init(path: "/v1/namespaces/team-a/", route: .namespace, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a//", route: .namespace, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a/reset/", route: .namespaceReset, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a//reset", route: .namespaceReset, namespace: "team-a"),
        .init(path: "/v1/namespaces/team-a//apps/a1/", route: .app, id: "a1", namespace: "team-a"),
        // The name is the bytes right after `/v1/namespaces/`: empty here, which the service refuses (400).
        .init(path: "/v1/namespaces//apps", route: .apps, namespace: ""),
        .init(path: "/v1/namespaces//", route: .namespace, namespace: ""),
    ]

    @Test("Empty segments and trailing slashes are skipped", arguments: emptySegments)
    func emptySegmentsAreSkipped(expected: Expected) {
        expectMatch(expected)
    }

    /// Past four segments (five under a namespace, its name counted) no route matches, however the first
    /// four would; nor does a route's path with a segment more than its own.
    @Test(
        "A path with more segments than its route does not match",
        arguments: [
            "/v1/apps/a1/events/x", "/v1/devices/d1/timeline/x/y", "/a/b/c/d/e/f/g/h", "/livez/x",
            "/v1/namespaces/team-a/apps/a1/events/x", "/v1/namespaces/team-a/reset/x", "/dashboard/css/app.css",
            "/v1/devices/d1/x", "/v1/namespaces/team-a/apps/a1/x",
        ])
    func tooManySegmentsDoNotMatch(path: String) {
        expectMatch(Expected(path: path, route: .unknown))
    }

    /// An id or a name is captured as its bytes are: `%` sequences are not decoded (the server decoded the path
    /// once already) and bytes past ASCII are kept whole.
    static let capturedBytes: [Expected] = [
        .init(path: "/v1/apps/a%2Fb", route: .app, id: "a%2Fb"),
        .init(path: "/v1/apps/a%20b/events", route: .appEvents, id: "a%20b"),
        .init(path: "/v1/devices/%/timeline", route: .deviceTimeline, id: "%"),
        .init(path: "/v1/apps/a b", route: .app, id: "a b"),
        .init(path: "/v1/apps/café/callbacks", route: .appCallbacks, id: "café"),
        .init(path: "/v1/apps/日本語", route: .app, id: "日本語"),
        .init(path: "/v1/apps/👩‍💻/verify", route: .appVerify, id: "👩‍💻"),
        .init(path: "/dashboard/%2e%2e", route: .dashboardAsset, id: "%2e%2e"),
        .init(path: "/v1/namespaces/équipe/apps/a%41", route: .app, id: "a%41", namespace: "équipe"),
        .init(path: "/v1/namespaces/a%2Fb", route: .namespace, namespace: "a%2Fb"),
    ]

    @Test("A parameter's bytes are captured as given", arguments: capturedBytes)
    func parameterBytesAreCapturedAsGiven(expected: Expected) {
        expectMatch(expected)
    }

    /// Bytes that only look like a literal once decoded or folded are not that literal.
    @Test(
        "A literal written otherwise does not match",
        arguments: ["/v1/%61pps/a1", "/v1/apps/a1/%65vents", "/v1/ａpps/a1", "/v1/namespaces%2Fteam-a/apps"])
    func aLiteralWrittenOtherwiseDoesNotMatch(path: String) {
        expectMatch(Expected(path: path, route: .unknown))
    }
}
