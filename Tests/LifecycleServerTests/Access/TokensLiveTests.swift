import LifecycleApplication
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// Access tokens through HTTP, on the unprefixed paths (the namespace `default`).
@Suite("Access tokens over HTTP")
struct TokensLiveTests {
    static let writer = TokenMinter.newSecret()
    static let elsewhere = TokenMinter.newSecret()
    static let reader = TokenMinter.newSecret()
    static let admin = TokenMinter.newSecret()

    static func table(_ entries: [(String, String, AccessRole, [String])]) -> TokenTable {
        let lines = entries.map { name, secret, role, namespaces in
            try! TokenFile.line(name: name, secret: secret, role: role, namespaces: namespaces)
        }
        let file = "{\"tokens\": [\(lines.joined(separator: ","))]}"
        return TokenTable(try! TokenFile.parse(Array(file.utf8)))
    }

    static let tokens = table([
        ("ci", writer, .write, ["default"]), ("other-team", elsewhere, .write, ["mail-*"]),
        ("dash", reader, .read, ["*"]), ("ops", admin, .admin, []),
    ])

    private func bearer(_ secret: String) -> [(String, String)] { [("Authorization", "Bearer \(secret)")] }

    @Test("No token, or an unknown one, answers 401 with WWW-Authenticate, and changes nothing")
    func unauthorized() throws {
        try withDaemon(tokens: Self.tokens) { server in
            let none = try server.post("/v1/apps", #"{"id": "a1", "bundleId": "com.example.a"}"#)
            expectProblem(none, status: 401, code: "unauthorized")
            #expect(none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let unknown = try server.post(
                "/v1/apps", #"{"id": "a1", "bundleId": "com.example.a"}"#, headers: bearer("lcd_not-a-token"))
            expectProblem(unknown, status: 401, code: "unauthorized")
            let basic = try server.get("/v1/apps", headers: [("Authorization", "Basic YTpi")])
            expectProblem(basic, status: 401, code: "unauthorized")
            // Nothing was created: the admin sees no app.
            let list = try server.get("/v1/apps", headers: bearer(Self.admin))
            #expect(list.status == 200)
            #expect((list.object["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("Probes, the contract and the catalogue of events need no token")
    func openPaths() throws {
        try withDaemon(tokens: Self.tokens) { server in
            for path in ["/livez", "/readyz", "/v1/openapi.yaml", "/v1/event-types"] {
                let reply = try server.get(path)
                #expect(reply.status == 200, "\(path)")
            }
        }
    }

    @Test("Metrics name every namespace: only an admin token reads them")
    func metricsTakeAnAdminToken() throws {
        try withDaemon(tokens: Self.tokens) { server in
            expectProblem(try server.get("/metrics"), status: 401, code: "unauthorized")
            for secret in [Self.writer, Self.reader] {
                expectProblem(try server.get("/metrics", headers: bearer(secret)), status: 403, code: "forbidden")
            }
            #expect(try server.get("/metrics", headers: bearer(Self.admin)).status == 200)
        }
    }

    @Test("A write token for the namespace writes; one for other namespaces and a read token get 403")
    func roles() throws {
        try withDaemon(tokens: Self.tokens) { server in
            let created = try server.post(
                "/v1/apps", #"{"id": "a1", "bundleId": "com.example.a"}"#, headers: bearer(Self.writer))
            #expect(created.status == 201, "\(created.text)")
            let launched = try server.post("/v1/apps/a1/events", #"{"type": "launch"}"#, headers: bearer(Self.writer))
            #expect(launched.status == 200)
            let foreign = try server.post(
                "/v1/apps/a1/events", #"{"type": "homeButton"}"#, headers: bearer(Self.elsewhere))
            expectProblem(foreign, status: 403, code: "forbidden")
            expectProblem(
                try server.get("/v1/apps/a1", headers: bearer(Self.elsewhere)), status: 403, code: "forbidden")
            let read = try server.get("/v1/apps/a1", headers: bearer(Self.reader))
            #expect(read.status == 200)
            #expect(read.string("state") == "active")
            let readerWrites = try server.post(
                "/v1/apps/a1/events", #"{"type": "homeButton"}"#, headers: bearer(Self.reader))
            expectProblem(readerWrites, status: 403, code: "forbidden")
            let deleted = try server.request("DELETE", "/v1/apps/a1", headers: bearer(Self.reader))
            expectProblem(deleted, status: 403, code: "forbidden")
            // None of the refused requests changed the app.
            #expect(try server.get("/v1/apps/a1", headers: bearer(Self.reader)).string("state") == "active")
        }
    }

    @Test("Only an admin token may reset everything")
    func reset() throws {
        try withDaemon(tokens: Self.tokens) { server in
            _ = try server.post("/v1/apps", #"{"id": "a1", "bundleId": "com.example.a"}"#, headers: bearer(Self.writer))
            expectProblem(
                try server.post("/v1/reset", "", headers: bearer(Self.writer)), status: 403, code: "forbidden")
            #expect(try server.get("/v1/apps/a1", headers: bearer(Self.writer)).status == 200)
            #expect(try server.post("/v1/reset", "", headers: bearer(Self.admin)).status == 204)
            expectProblem(try server.get("/v1/apps/a1", headers: bearer(Self.writer)), status: 404, code: "not-found")
        }
    }

    @Test("Replacing the tokens takes effect at once: the new ones work, the old ones answer 401")
    func replacing() throws {
        try withDaemon(tokens: Self.tokens) { server in
            let fresh = TokenMinter.newSecret()
            server.service.setTokens(Self.table([("new", fresh, .read, ["default"])]))
            expectProblem(try server.get("/v1/apps", headers: bearer(Self.reader)), status: 401, code: "unauthorized")
            #expect(try server.get("/v1/apps", headers: bearer(fresh)).status == 200)
            server.service.setTokens(nil)
            #expect(try server.get("/v1/apps").status == 200)
        }
    }
}

/// A token taken out of the file (`SIGHUP`) ends the streams it opened: they were allowed by it alone.
@Suite("Revoked tokens end their streams")
struct RevokedStreamTests {
    @Test func aStreamOpenedWithARevokedTokenEndsAndOneStillAllowedGoesOn() throws {
        let kept = TokenMinter.newSecret()
        let revoked = TokenMinter.newSecret()
        let admin = TokensLiveTests.admin
        let both = TokensLiveTests.table([
            ("kept", kept, .read, ["*"]), ("gone", revoked, .read, ["*"]), ("ops", admin, .admin, []),
        ])
        try withDaemon(transport: .live, tokens: both) { server in
            let created = try server.post(
                "/v1/apps", #"{"id": "a", "bundleId": "com.example.a"}"#,
                headers: [("Authorization", "Bearer \(admin)")])
            #expect(created.status == 201)
            let ending = try EventStreamClient(
                port: server.port, path: "/v1/apps/a/timeline", headers: [("Authorization", "Bearer \(revoked)")])
            let going = try EventStreamClient(
                port: server.port, path: "/v1/changes", headers: [("Authorization", "Bearer \(kept)")])
            #expect(ending.head.status == 200 && going.head.status == 200)
            #expect(try going.nextEvent()?.event == "snapshot")
            server.service.setTokens(TokensLiveTests.table([("kept", kept, .read, ["*"]), ("ops", admin, .admin, [])]))
            let end = try #require(try ending.nextEvent())
            #expect(end.event == "end")
            #expect(end.data == #"{"reason":"revoked"}"#)
            #expect(try ending.nextEvent() == nil)
            let launched = try server.post(
                "/v1/apps/a/events", #"{"type": "launch"}"#, headers: [("Authorization", "Bearer \(admin)")])
            #expect(launched.status == 200)
            // The stream of a token still allowed goes on: the launch's changes reach it, and no end.
            let events = try going.events { $0.event == "app" }
            #expect(events.last?.event == "app")
            #expect(!events.contains { $0.event == "end" })
        }
    }
}
