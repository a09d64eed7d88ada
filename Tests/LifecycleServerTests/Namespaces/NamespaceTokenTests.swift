import LifecycleApplication
import LifecycleTesting
import Testing

@testable import LifecycleServer

/// Access tokens on namespaced paths.
@Suite("Access tokens on namespaces")
struct NamespaceTokenTests {
    static let mail = TokenMinter.newSecret()
    static let reader = TokenMinter.newSecret()
    static let admin = TokenMinter.newSecret()
    static let tokens = TokensLiveTests.table([
        ("mail-ci", mail, .write, ["mail", "mail-*"]), ("dash", reader, .read, ["mail-*"]),
        ("ops", admin, .admin, []),
    ])

    private func bearer(_ secret: String) -> [(String, String)] { [("Authorization", "Bearer \(secret)")] }

    @Test("401 without a token, 403 outside the token's namespaces or role, on every namespaced path")
    func refusals() throws {
        try withDaemon(tokens: Self.tokens) { (server: TestDaemon) throws in
            let app = #"{"id": "a", "bundleId": "com.example.a"}"#
            expectProblem(try server.post("/v1/namespaces/mail/apps", app), status: 401, code: "unauthorized")
            expectProblem(try server.get("/v1/namespaces/mail"), status: 401, code: "unauthorized")
            expectProblem(try server.get("/v1/namespaces"), status: 401, code: "unauthorized")
            #expect(try server.post("/v1/namespaces/mail-1/apps", app, headers: bearer(Self.mail)).status == 201)
            #expect(try server.post("/v1/namespaces/mail/apps", app, headers: bearer(Self.mail)).status == 201)
            let put = try server.request(
                "PUT", "/v1/namespaces/mail-2", body: #"{"ttlSeconds": 60}"#, headers: bearer(Self.mail))
            #expect(put.status == 201)
            // Another team's namespace, with each method.
            for (method, path) in [
                ("POST", "/v1/namespaces/maps/apps"), ("GET", "/v1/namespaces/maps/apps"),
                ("PUT", "/v1/namespaces/maps"), ("DELETE", "/v1/namespaces/maps"),
                ("POST", "/v1/namespaces/maps/reset"), ("GET", "/v1/apps"), ("POST", "/v1/reset"),
                ("GET", "/v1/namespaces/maps/coverage"), ("GET", "/v1/namespaces/maps/apps/a/versions"),
                ("GET", "/v1/coverage"),
            ] {
                let reply = try server.request(
                    method, path, body: method == "GET" || method == "DELETE" ? nil : app, headers: bearer(Self.mail))
                expectProblem(reply, status: 403, code: "forbidden")
            }
            // A read token reads, and may not write.
            #expect(try server.get("/v1/namespaces/mail-1/apps/a", headers: bearer(Self.reader)).status == 200)
            #expect(try server.get("/v1/namespaces/mail-1/apps/a/events", headers: bearer(Self.reader)).status == 200)
            // The read token's coverage (which derives the model's bands first): ComparisonsAPITests.
            #expect(
                try server.get("/v1/namespaces/mail-1/apps/a/versions?versions=9.0", headers: bearer(Self.reader))
                    .status == 200)
            expectProblem(
                try server.get("/v1/namespaces/maps/apps/a/events", headers: bearer(Self.reader)), status: 403,
                code: "forbidden")
            for (method, path) in [
                ("POST", "/v1/namespaces/mail-1/apps/a/events"), ("DELETE", "/v1/namespaces/mail-1"),
                ("PUT", "/v1/namespaces/mail-1"), ("POST", "/v1/namespaces/mail-1/reset"),
            ] {
                let reply = try server.request(
                    method, path, body: method == "DELETE" ? nil : #"{"type": "launch"}"#,
                    headers: bearer(Self.reader))
                expectProblem(reply, status: 403, code: "forbidden")
            }
            #expect(
                try server.get("/v1/namespaces/mail-1/apps/a", headers: bearer(Self.admin)).string("state")
                    == "notRunning")
            // The list holds only what the token may read.
            func names(_ secret: String) throws -> [String] {
                let items =
                    try server.get("/v1/namespaces", headers: bearer(secret)).object["items"] as? [[String: Any]]
                return items?.compactMap { $0["id"] as? String } ?? []
            }
            #expect(try names(Self.mail) == ["mail", "mail-1", "mail-2"])
            #expect(try names(Self.reader) == ["mail-1", "mail-2"])
            #expect(try names(Self.admin) == ["default", "mail", "mail-1", "mail-2"])
            #expect(try server.request("DELETE", "/v1/namespaces/mail-1", headers: bearer(Self.mail)).status == 204)
        }
    }
}
