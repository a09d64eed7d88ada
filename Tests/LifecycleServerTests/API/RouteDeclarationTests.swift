import Foundation
import LifecycleTesting
import Testing

@testable import LifecycleServer

/// `Route.declaration` is the one description of a route: the spec's paths are its paths, the matcher finds
/// each route at its declared path (and under `/v1/namespaces/{ns}` exactly when declared `namespaced`), and an
/// import takes exactly the operations declared importable.
@Suite("Route declarations")
struct RouteDeclarationTests {
    static let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources/LifecycleServer/Resources/openapi.yaml")

    /// Every `METHOD /path` of the spec's `paths:` (a path is a line `  /...:`, its methods the lines
    /// `    get:` and the like under it).
    static func specOperations() throws -> Set<String> {
        let lines = try String(contentsOf: spec, encoding: .utf8).split(separator: "\n")
        let methods: Set<Substring> = ["get", "put", "post", "delete", "patch", "head", "options"]
        var found: Set<String> = []
        var path: String?
        var inPaths = false
        for line in lines {
            if !line.hasPrefix(" ") {
                inPaths = line == "paths:"
                path = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                methods.contains(line.dropFirst(4).dropLast())
            {
                found.insert("\(line.dropFirst(4).dropLast().uppercased()) \(path)")
            }
        }
        return found
    }

    /// Every `METHOD /path` the declarations route: each path, and its twin under `/v1/namespaces/{ns}` when
    /// declared `namespaced`. `HEAD` is left out on both sides: the HTTP server answers it as `GET`, and the spec
    /// does not list it.
    static func routedOperations() -> Set<String> {
        var routed: Set<String> = []
        for route in Route.allCases {
            let declaration = route.declaration
            let path = declaration.path.description
            for operation in declaration.operations {
                routed.insert("\(operation.method) \(path)")
                if declaration.namespaced {
                    routed.insert("\(operation.method) /v1/namespaces/{ns}\(path.dropFirst("/v1".count))")
                }
            }
        }
        return routed
    }

    @Test("every operation of the spec is routed, and every routed operation is in the spec")
    func theSpecAndTheTableAgree() throws {
        let spec = try Self.specOperations()
        let routed = Self.routedOperations()
        #expect(spec.count > 40, "the spec's paths were not read: \(spec)")
        #expect(spec.subtracting(routed).sorted() == [], "in the spec, not routed")
        #expect(routed.subtracting(spec).sorted() == [], "routed, not in the spec")
    }

    /// A declared path with its parameters filled in.
    static func sample(_ path: String) -> String {
        path.replacingOccurrences(of: "{id}", with: "x1").replacingOccurrences(of: "{file}", with: "app.js")
            .replacingOccurrences(of: "{ns}", with: "team-a")
    }

    @Test("each route matches its declared path, under a namespace exactly when declared namespaced")
    func theMatcherFollowsTheDeclarations() {
        for route in Route.allCases where route != .unknown {
            let declaration = route.declaration
            let path = declaration.path.description
            let match = Route.match(Self.sample(path))
            #expect(match.route == route, "\(path)")
            let id: String? = path.contains("{id}") ? "x1" : path.contains("{file}") ? "app.js" : nil
            #expect(match.id == id, "\(path)")
            #expect(match.namespace == (path.contains("{ns}") ? "team-a" : nil), "\(path)")
            guard path.hasPrefix("/v1/") && !path.hasPrefix("/v1/namespaces") else { continue }
            let twin = Route.match(Self.sample("/v1/namespaces/{ns}" + path.dropFirst("/v1".count)))
            if declaration.namespaced {
                #expect(twin.route == route && twin.namespace == "team-a" && twin.id == match.id, "\(path)")
            } else {
                #expect(twin.route != route, "\(path) is not namespaced, yet matched under a namespace")
            }
        }
    }

    @Test(
        "the facts read from the declarations: namespaced routes need their namespace's access, and only a scoped change passes the gate"
    )
    func derivedFacts() {
        for route in Route.allCases where route != .unknown {
            let declaration = route.declaration
            if case .pathNamespace = declaration.access {
                #expect(route.isNamespaced, "\(route)")
            } else {
                #expect(!route.isNamespaced, "\(route)")
            }
            #expect(route.isVersioned == declaration.path.description.hasPrefix("/v1/"), "\(route)")
            for operation in declaration.operations {
                if operation.gated {
                    guard case .scoped = operation.handler else {
                        Issue.record("\(route) \(operation.method): gated but not scoped")
                        continue
                    }
                    #expect(operation.isWrite, "\(route) \(operation.method)")
                }
                #expect(operation.isWrite == (operation.method != "GET"), "\(route) \(operation.method)")
            }
        }
        // The changes that do not pass their namespace's gate, and those that go on when the store is short of room.
        let ungated = Route.allCases.flatMap { route in
            route.operations.filter { $0.isWrite && !$0.gated }.map { "\($0.method) \(route)" }
        }
        #expect(
            ungated.sorted() == [
                "DELETE namespace", "POST appPendingCallback", "POST appVerify", "POST import", "POST reset",
                "PUT namespace",
            ])
        let freeing = Route.allCases.flatMap { route in
            route.operations.filter { $0.effect == .freeing }.map { "\($0.method) \(route)" }
        }
        #expect(
            freeing.sorted() == [
                "DELETE app", "DELETE device", "DELETE namespace", "POST namespaceReset", "POST reset",
            ])
    }

    /// What an import may take, read from the declarations: this list is the policy.
    static let importable = [
        "DELETE /v1/apps/{id}", "DELETE /v1/devices/{id}", "GET /v1/apps/{id}", "GET /v1/apps/{id}/callbacks",
        "GET /v1/apps/{id}/events", "GET /v1/apps/{id}/exits", "GET /v1/apps/{id}/notifications",
        "GET /v1/apps/{id}/timeline",
        "GET /v1/devices/{id}", "GET /v1/devices/{id}/timeline", "POST /v1/apps", "POST /v1/apps/{id}/events",
        "POST /v1/apps/{id}/verify", "POST /v1/devices", "POST /v1/devices/{id}/events",
    ]

    @Test("an import takes exactly the operations declared importable")
    func theImportPolicyIsTheDeclarations() throws {
        let declared = Route.allCases.flatMap { route in
            route.operations.filter { $0.importUse != nil }.map { "\($0.method) \(route.declaration.path)" }
        }
        #expect(declared.sorted() == Self.importable)
        try withDaemon { server in
            for route in Route.allCases where route.isNamespaced {
                for operation in route.operations {
                    let path = Self.sample(route.declaration.path.description)
                    // Only the namespaced routes' unprefixed paths are `default`'s; the others name `team-a`.
                    let transport = ImportTransport(
                        service: server.service, namespace: path.contains("team-a") ? "team-a" : nil)
                    var refusal: String?
                    do {
                        _ = try transport.exchange(
                            method: operation.method, path: path, headers: [], body: Array("{}".utf8))
                    } catch {
                        refusal = "\(error)"
                    }
                    let refused = refusal?.contains("is none of that") == true
                    #expect(
                        refused == (operation.importUse == nil), "\(operation.method) \(path): \(refusal ?? "taken")")
                }
            }
        }
    }
}
