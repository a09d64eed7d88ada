import LifecycleApplication
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

@Suite("Namespace quotas")
struct NamespaceQuotaTests {
    @Test("A creation over a namespace's quota answers 403 quota-exceeded with the limit, and changes nothing")
    func quotas() throws {
        try withDaemon(configure: { options in
            options.maxDevicesPerNamespace = 2
            options.maxAppsPerNamespace = 3
        }) { (server: TestDaemon) throws in
            for id in ["d1", "d2"] {
                #expect(try server.post("/v1/namespaces/q/devices", #"{"id": "\#(id)"}"#).status == 201)
            }
            let over = try server.post("/v1/namespaces/q/devices", #"{"id": "d3"}"#)
            expectProblem(over, status: 403, code: "quota-exceeded")
            #expect(over.int("limit") == 2)
            // An app without a device needs a device too.
            expectProblem(
                try server.post("/v1/namespaces/q/apps", #"{"id": "x", "bundleId": "com.example.x"}"#), status: 403,
                code: "quota-exceeded")
            #expect(try server.get("/v1/namespaces/q").int("devices") == 2)
            #expect(try server.get("/v1/namespaces/q/apps/x").status == 404)
            for id in ["a1", "a2", "a3"] {
                let reply = try server.post(
                    "/v1/namespaces/q/apps", #"{"id": "\#(id)", "device": "d1", "bundleId": "com.example.a"}"#)
                #expect(reply.status == 201)
            }
            let app = try server.post(
                "/v1/namespaces/q/apps", #"{"id": "a4", "device": "d2", "bundleId": "com.example.a"}"#)
            expectProblem(app, status: 403, code: "quota-exceeded")
            #expect(app.int("limit") == 3)
            #expect(try server.get("/v1/namespaces/q").int("apps") == 3)
            // Quotas are per namespace: another one starts from nothing.
            #expect(try server.post("/v1/devices", #"{"id": "d3"}"#).status == 201)
            #expect(try server.post("/v1/namespaces/r/devices", #"{"id": "d3"}"#).status == 201)
            // Deleting frees room.
            #expect(try server.delete("/v1/namespaces/q/devices/d2").status == 204)
            #expect(try server.post("/v1/namespaces/q/devices", #"{"id": "d3"}"#).status == 201)
        }
    }

    @Test("The daemon's own bounds: namespaces, devices over every namespace, namespaces one token created")
    func daemonBounds() throws {
        let ci = TokenMinter.newSecret()
        let admin = TokenMinter.newSecret()
        let tokens = TokensLiveTests.table([("ci", ci, .write, ["ci-*"]), ("ops", admin, .admin, [])])
        func bearer(_ secret: String) -> [(String, String)] { [("Authorization", "Bearer \(secret)")] }
        try withDaemon(
            tokens: tokens,
            configure: { options in
                options.maxNamespaces = 4
                options.maxNamespacesPerToken = 2
                options.maxDevices = 3
            }
        ) { (server: TestDaemon) throws in
            for name in ["ci-1", "ci-2"] {
                #expect(try server.post("/v1/namespaces/\(name)/devices", "{}", headers: bearer(ci)).status == 201)
            }
            // A third namespace of the same token: refused, nothing made; an admin is not counted per token.
            let third = try server.post("/v1/namespaces/ci-3/devices", "{}", headers: bearer(ci))
            expectProblem(third, status: 403, code: "quota-exceeded")
            #expect(third.int("limit") == 2)
            #expect(third.string("detail")?.contains("--max-namespaces-per-token") == true)
            #expect(try server.get("/v1/namespaces/ci-3", headers: bearer(admin)).status == 404)
            expectProblem(
                try server.request("PUT", "/v1/namespaces/ci-3", body: "{}", headers: bearer(ci)), status: 403,
                code: "quota-exceeded")
            #expect(try server.request("PUT", "/v1/namespaces/ci-3", body: "{}", headers: bearer(admin)).status == 201)
            // Devices over every namespace: 2 made, a third fits, a fourth does not.
            #expect(try server.post("/v1/namespaces/ci-3/devices", "{}", headers: bearer(admin)).status == 201)
            let device = try server.post("/v1/namespaces/ci-3/devices", "{}", headers: bearer(admin))
            expectProblem(device, status: 403, code: "quota-exceeded")
            #expect(device.string("detail")?.contains("--max-devices") == true)
            // Namespaces over the daemon: ci-1, ci-2, ci-3 and one more; the fifth is refused even for an admin.
            #expect(try server.request("PUT", "/v1/namespaces/ops-1", body: "{}", headers: bearer(admin)).status == 201)
            let fifth = try server.request("PUT", "/v1/namespaces/ops-2", body: "{}", headers: bearer(admin))
            expectProblem(fifth, status: 403, code: "quota-exceeded")
            #expect(fifth.string("detail")?.contains("--max-namespaces") == true)
            // Deleting one of the token's namespaces gives it room again.
            #expect(try server.request("DELETE", "/v1/namespaces/ci-1", headers: bearer(ci)).status == 204)
            let app = try server.post(
                "/v1/namespaces/ci-4/apps", #"{"bundleId": "com.example.a"}"#, headers: bearer(ci))
            #expect(app.status == 201, "\(app.text)")
        }
    }

    @Test("Apps over every namespace stop at --max-apps")
    func appsOverEveryNamespace() throws {
        try withDaemon(configure: { $0.maxApps = 2 }) { (server: TestDaemon) throws in
            #expect(try server.post("/v1/apps", #"{"bundleId": "com.example.a"}"#).status == 201)
            #expect(try server.post("/v1/namespaces/other/apps", #"{"bundleId": "com.example.a"}"#).status == 201)
            let third = try server.post("/v1/namespaces/third/apps", #"{"bundleId": "com.example.a"}"#)
            expectProblem(third, status: 403, code: "quota-exceeded")
            #expect(third.int("limit") == 2)
            #expect(third.string("detail")?.contains("--max-apps") == true)
        }
    }

    @Test("The namespaces a token created are counted again after a restart (createdBy is journaled)")
    func perTokenCountSurvivesARestart() throws {
        let ci = TokenMinter.newSecret()
        let tokens = TokensLiveTests.table([("ci", ci, .write, ["ci-*"])])
        let bearer = [("Authorization", "Bearer \(ci)")]
        try withTemporaryDirectory { directory in
            try withDaemon(
                store: .sqlite(directory: directory), tokens: tokens, configure: { $0.maxNamespacesPerToken = 2 }
            ) {
                (server: TestDaemon) throws in
                for name in ["ci-1", "ci-2"] {
                    #expect(try server.post("/v1/namespaces/\(name)/devices", "{}", headers: bearer).status == 201)
                }
            }
            try withDaemon(
                store: .sqlite(directory: directory), tokens: tokens, configure: { $0.maxNamespacesPerToken = 2 }
            ) {
                (server: TestDaemon) throws in
                expectProblem(
                    try server.post("/v1/namespaces/ci-3/devices", "{}", headers: bearer), status: 403,
                    code: "quota-exceeded")
            }
        }
    }
}
