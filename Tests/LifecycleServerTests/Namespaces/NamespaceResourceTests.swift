import Foundation
import LifecycleApplication
import LifecycleTesting
import Synchronization
import TestSupport
import Testing

@testable import LifecycleServer

/// `PUT`/`GET`/`DELETE /v1/namespaces/{ns}`, the paged list, resets, and deletion waking long polls.
@Suite("Namespace resources")
struct NamespaceResourceTests {
    func put(_ server: TestDaemon, _ name: String, _ body: String) throws -> Reply {
        try server.request("PUT", "/v1/namespaces/\(name)", body: body)
    }

    @Test("PUT creates (201) then updates (200); the document holds exactly the listed members")
    func putAndGet() throws {
        try withDaemon { (server: TestDaemon) throws in
            let created = try put(server, "mail-ci", #"{"ttlSeconds": 3600, "labels": {"team": "mail"}}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.header("Location") == "/v1/namespaces/mail-ci")
            #expect(
                Set(created.object.keys)
                    == ["id", "createdAt", "lastUsedAt", "ttlSeconds", "frozen", "labels", "devices", "apps", "limits"])
            #expect(created.object["frozen"] as? Bool == false)
            #expect(created.string("id") == "mail-ci")
            #expect(created.int("ttlSeconds") == 3600)
            #expect(canonical(created.object["labels"]!) == #"{"team":"mail"}"#)
            #expect(canonical(created.object["limits"]!) == #"{"apps":100000,"devices":10000}"#)
            #expect(ISO8601DateFormatter.withFraction.date(from: created.string("createdAt") ?? "") != nil)
            // Leaving a member out keeps it; null clears the TTL.
            let updated = try put(server, "mail-ci", #"{"ttlSeconds": null}"#)
            #expect(updated.status == 200)
            #expect(updated.object["ttlSeconds"] is NSNull)
            #expect(canonical(updated.object["labels"]!) == #"{"team":"mail"}"#)
            #expect(try put(server, "mail-ci", "").status == 200)
            expectProblem(try put(server, "mail-ci", #"{"ttlSeconds": 0}"#), status: 400, code: "invalid-field")
            expectProblem(try put(server, "mail-ci", #"{"ttlSeconds": 1.5}"#), status: 400, code: "invalid-field")
            expectProblem(try put(server, "mail-ci", #"{"labels": {"a": 1}}"#), status: 400, code: "invalid-field")
            expectProblem(try put(server, "mail-ci", #"{"colour": "red"}"#), status: 400, code: "invalid-field")
            expectProblem(try put(server, "default", #"{"ttlSeconds": 60}"#), status: 400, code: "invalid-field")
            expectProblem(try put(server, "Mail", "{}"), status: 400, code: "invalid-field")
            #expect(try server.get("/v1/namespaces/mail-ci").object["ttlSeconds"] is NSNull)
        }
    }

    @Test("GET /v1/namespaces pages by name, default included")
    func list() throws {
        try withDaemon { (server: TestDaemon) throws in
            for name in ["c", "a", "b"] { #expect(try put(server, name, "{}").status == 201) }
            let first = try server.get("/v1/namespaces?limit=2")
            let names = (first.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(names == ["a", "b"])
            #expect(first.string("next") == "b")
            let rest = try server.get("/v1/namespaces?after=b")
            let more = (rest.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(more == ["c", "default"])
            #expect(rest.object["next"] is NSNull)
            expectProblem(try server.get("/v1/namespaces?limit=0"), status: 400, code: "invalid-field")
        }
    }

    @Test("A namespace's reset empties it alone; POST /v1/reset empties every namespace and keeps them")
    func resets() throws {
        try withDaemon { (server: TestDaemon) throws in
            for prefix in ["/v1", "/v1/namespaces/one", "/v1/namespaces/two"] {
                #expect(try server.post("\(prefix)/apps", #"{"id": "a", "bundleId": "com.example.a"}"#).status == 201)
            }
            #expect(try server.post("/v1/namespaces/one/reset", "").status == 204)
            #expect(try server.get("/v1/namespaces/one/apps/a").status == 404)
            #expect(try server.get("/v1/namespaces/one").int("devices") == 0)
            #expect(try server.get("/v1/namespaces/two/apps/a").status == 200)
            #expect(try server.get("/v1/apps/a").status == 200)
            #expect(try server.post("/v1/reset", "").status == 204)
            #expect(try server.get("/v1/namespaces/two/apps/a").status == 404)
            #expect(try server.get("/v1/apps/a").status == 404)
            #expect(try server.get("/v1/namespaces/two").status == 200)
        }
    }

    @Test("DELETE takes the namespace and everything in it, and answers its parked long polls 410")
    func deletion() throws {
        try withDaemon { (server: TestDaemon) throws in
            _ = try server.post("/v1/namespaces/doomed/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
            _ = try server.post("/v1/namespaces/kept/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
            let doomed = Background { try server.get("/v1/namespaces/doomed/apps/a/timeline?after=0&wait=30") }
            let kept = Background { try server.get("/v1/namespaces/kept/apps/a/timeline?after=0&wait=30") }
            #expect(eventually { server.service.parked.load(ordering: .relaxed) == 2 })
            #expect(try server.delete("/v1/namespaces/doomed").status == 204)
            let answer = try doomed.join()
            expectProblem(answer, status: 410, code: "gone")
            #expect(answer.string("namespace") == "doomed")
            #expect(try server.get("/v1/namespaces/doomed").status == 404)
            #expect(try server.get("/v1/namespaces/doomed/apps/a").status == 404)
            // The other namespace's poll sleeps on until its own app moves.
            #expect(server.service.parked.load(ordering: .relaxed) == 1)
            _ = try server.post("/v1/namespaces/kept/apps/a/events", #"{"type": "launch"}"#)
            #expect(try kept.join().status == 200)
            // The name is free again: a write makes a fresh, empty namespace.
            #expect(try server.post("/v1/namespaces/doomed/devices", "{}").status == 201)
            #expect(try server.get("/v1/namespaces/doomed").int("apps") == 0)
        }
    }

    @Test("DELETE of default answers 400 and changes nothing; its reset empties it")
    func deletingDefault() throws {
        try withDaemon { (server: TestDaemon) throws in
            _ = try server.post("/v1/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
            expectProblem(try server.delete("/v1/namespaces/default"), status: 400, code: "invalid-field")
            #expect(try server.get("/v1/apps/a").status == 200)
            #expect(try server.post("/v1/namespaces/default/reset", "").status == 204)
            #expect(try server.get("/v1/apps/a").status == 404)
            #expect(try server.get("/v1/namespaces/default").status == 200)
        }
    }
}

extension ISO8601DateFormatter {
    static var withFraction: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
