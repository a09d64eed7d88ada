import Foundation
import Testing

@testable import LifecycleServer

@Suite("Namespaced routes")
struct NamespaceRouteTests {
    @Test(
        "Every resource path also matches under /v1/namespaces/{ns}, with the same route and id",
        arguments: [
            "/v1/devices", "/v1/devices/d1", "/v1/devices/d1/events", "/v1/devices/d1/timeline", "/v1/apps",
            "/v1/apps/a1", "/v1/apps/a1/events", "/v1/apps/a1/callbacks", "/v1/apps/a1/timeline",
            "/v1/apps/a1/notifications",
        ])
    func namespacedResourcePaths(path: String) {
        let plain = Route.match(path)
        let namespaced = Route.match(path.replacingOccurrences(of: "/v1/", with: "/v1/namespaces/team-a/"))
        #expect(plain.route != .unknown && plain.namespace == nil)
        #expect(namespaced.route == plain.route)
        #expect(namespaced.id == plain.id)
        #expect(namespaced.namespace == "team-a")
    }

    @Test("The namespace resources, and what is not under a namespace")
    func namespaceResources() {
        #expect(Route.match("/v1/namespaces").route == .namespaces)
        #expect(Route.match("/v1/namespaces/").route == .namespaces)
        #expect(Route.match("/v1/namespaces/a").route == .namespace)
        #expect(Route.match("/v1/namespaces/a").namespace == "a")
        #expect(Route.match("/v1/namespaces/a/reset").route == .namespaceReset)
        #expect(Route.match("/v1/reset").route == .reset)
        for path in [
            "/v1/namespaces/a/openapi.yaml", "/v1/namespaces/a/namespaces", "/v1/namespaces/a/livez",
            "/v1/namespaces/a/apps/b/c/d", "/v1/namespacesx", "/v1/namespaces/a/b",
        ] {
            #expect(Route.match(path).route == .unknown, "\(path)")
        }
        // A name outside the pattern still routes: the service answers 400 naming the pattern.
        #expect(Route.match("/v1/namespaces/Bad_Name/apps").namespace == "Bad_Name")
    }
}
