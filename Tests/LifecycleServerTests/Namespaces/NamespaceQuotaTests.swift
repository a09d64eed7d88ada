import LifecycleTesting
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
}
