import Foundation
import LifecycleApplication
import LifecycleTesting
import Synchronization
import TestSupport
import Testing

@testable import LifecycleServer

/// The same ids in two namespaces, through HTTP: state, timelines, long polls and idempotency keys apart.
@Suite("Namespaces keep apart")
struct NamespaceIsolationTests {
    @Test("The same app id in two namespaces, driven concurrently, never sees the other's state or timeline")
    func sameIDsConcurrently() throws {
        try withDaemon { (server: TestDaemon) throws in
            let spaces = ["team-a", "team-b", "default"]
            let runs = spaces.map { space in
                Background { () throws -> Int in
                    let prefix = space == "default" ? "/v1" : "/v1/namespaces/\(space)"
                    let created = try server.post(
                        "\(prefix)/apps", #"{"id": "mail", "bundleId": "com.example.mail", "iosVersion": "17.0"}"#)
                    guard created.status == 201 else { return -created.status }
                    #expect(created.header("Location") == "\(prefix)/apps/mail")
                    _ = try server.post("\(prefix)/apps/mail/events", #"{"type": "launch"}"#)
                    if space == "team-b" {
                        _ = try server.post("\(prefix)/apps/mail/events", #"{"type": "homeButton"}"#)
                    }
                    return 201
                }
            }
            for run in runs { #expect(try run.join() == 201) }
            #expect(try server.get("/v1/namespaces/team-a/apps/mail").string("state") == "active")
            #expect(try server.get("/v1/namespaces/team-b/apps/mail").string("state") == "suspended")
            #expect(try server.get("/v1/apps/mail").string("state") == "active")
            let a = try server.allEntries("/v1/namespaces/team-a/apps/mail/callbacks")
            let b = try server.allEntries("/v1/namespaces/team-b/apps/mail/callbacks")
            #expect(selectors(a).last == "applicationDidBecomeActive:")
            #expect(selectors(b).last == "applicationDidEnterBackground:")
            // Each namespace lists its own: one app, one device.
            for space in ["team-a", "team-b"] {
                let apps = try server.get("/v1/namespaces/\(space)/apps").object["items"] as? [Any]
                #expect(apps?.count == 1)
            }
            // Deleting one namespace's app leaves the others'.
            #expect(try server.delete("/v1/namespaces/team-a/apps/mail").status == 204)
            #expect(try server.get("/v1/namespaces/team-a/apps/mail").status == 404)
            #expect(try server.get("/v1/namespaces/team-b/apps/mail").status == 200)
            #expect(try server.get("/v1/apps/mail").status == 200)
        }
    }

    @Test("An Idempotency-Key used in one namespace is free in another")
    func idempotencyKeysApart() throws {
        try withDaemon { (server: TestDaemon) throws in
            for space in ["one", "two"] {
                _ = try server.post("/v1/namespaces/\(space)/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
            }
            let key = [("Idempotency-Key", "k1")]
            let first = try server.post("/v1/namespaces/one/apps/a/events", #"{"type": "launch"}"#, headers: key)
            #expect(first.status == 200)
            let other = try server.post(
                "/v1/namespaces/two/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#, headers: key)
            #expect(other.status == 200, "\(other.text)")
            #expect(other.header("Idempotent-Replayed") == nil)
            #expect(try server.get("/v1/namespaces/two/apps/a").string("state") == "suspended")
        }
    }

    @Test("A long poll in one namespace sleeps on while the same app id moves in another")
    func longPollsApart() throws {
        try withDaemon { (server: TestDaemon) throws in
            for space in ["one", "two"] {
                _ = try server.post("/v1/namespaces/\(space)/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
            }
            let poll = Background { try server.get("/v1/namespaces/one/apps/a/timeline?after=0&wait=20") }
            #expect(eventually { server.service.parked.load(ordering: .relaxed) == 1 })
            _ = try server.post("/v1/namespaces/two/apps/a/events", #"{"type": "launch"}"#)
            #expect(try server.get("/v1/namespaces/two/apps/a").string("state") == "active")
            #expect(server.service.parked.load(ordering: .relaxed) == 1)
            _ = try server.post("/v1/namespaces/one/apps/a/events", #"{"type": "launch"}"#)
            let answer = try poll.join()
            #expect(answer.status == 200)
            #expect((answer.object["items"] as? [Any])?.isEmpty == false)
        }
    }

    @Test("A namespace name outside the pattern answers 400 with the pattern; a read of a missing one 404")
    func names() throws {
        try withDaemon { (server: TestDaemon) throws in
            for bad in ["Team", "a_b", "-a", "a-", String(repeating: "a", count: 64)] {
                let reply = try server.post("/v1/namespaces/\(bad)/apps", #"{"bundleId": "com.example.a"}"#)
                expectProblem(reply, status: 400, code: "invalid-field")
                #expect(reply.string("pattern") == NamespaceName.pattern)
            }
            expectProblem(try server.get("/v1/namespaces/nowhere/apps"), status: 404, code: "not-found")
            expectProblem(try server.get("/v1/namespaces/nowhere"), status: 404, code: "not-found")
            expectProblem(try server.delete("/v1/namespaces/nowhere"), status: 404, code: "not-found")
            // Nothing was created by the reads.
            #expect(try server.get("/v1/namespaces/nowhere").status == 404)
            // A write creates it with defaults.
            #expect(try server.post("/v1/namespaces/nowhere/devices", "{}").status == 201)
            let document = try server.get("/v1/namespaces/nowhere")
            #expect(document.status == 200)
            #expect(document.int("devices") == 1)
            #expect(document.object["ttlSeconds"] is NSNull)
        }
    }
}
