import Dispatch
import Foundation
import LifecycleTesting
import Locking
import TestSupport
import Testing

@testable import LifecycleServer

/// `PUT /v1/namespaces/{ns}` with `{"frozen": true}`: the namespace takes no changes (`409 namespace-frozen` with `Retry-After`)
/// while it moves to another shard, and the freeze is answered only once the changes under way are, so a
/// read after it holds every change that was acknowledged.
@Suite struct NamespaceFreezeTests {
    @Test func aFrozenNamespaceRefusesChangesAndServesReads() throws {
        try withDaemon { server in
            #expect(try server.request("PUT", "/v1/namespaces/moving", body: "{}").status == 201)
            _ = try server.post("/v1/namespaces/moving/apps", #"{"id": "mail", "bundleId": "com.example.mail"}"#)
            let frozen = try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": true}"#)
            #expect(frozen.status == 200 && frozen.object["frozen"] as? Bool == true, "\(frozen.text)")

            let refused = try server.post("/v1/namespaces/moving/apps/mail/events", #"{"type": "launch"}"#)
            expectProblem(refused, status: 409, code: "namespace-frozen")
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.string("detail")?.contains("frozen") == true)
            expectProblem(
                try server.post(
                    "/v1/namespaces/moving/import", #"{"name": "n", "source": "s", "steps": [{"do": "GET /v1/apps"}]}"#),
                status: 409, code: "namespace-frozen")
            expectProblem(try server.delete("/v1/namespaces/moving/apps/mail"), status: 409, code: "namespace-frozen")
            // A verify reads: it goes on (and says the app, never launched, had no such callback).
            let verified = try server.post(
                "/v1/namespaces/moving/apps/mail/verify", #"{"callbacks": ["applicationDidBecomeActive:"]}"#)
            #expect(verified.string("code") == "verification-failed", "\(verified.text)")
            #expect(try server.get("/v1/namespaces/moving/apps/mail").status == 200)
            #expect(try server.get("/v1/namespaces/moving/export").status == 200)
            // Other namespaces are not concerned.
            #expect(try server.post("/v1/apps", #"{"id": "mail", "bundleId": "com.example.mail"}"#).status == 201)

            let thawed = try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": false}"#)
            #expect(thawed.status == 200 && thawed.object["frozen"] as? Bool == false)
            #expect(try server.post("/v1/namespaces/moving/apps/mail/events", #"{"type": "launch"}"#).status == 200)
            expectProblem(
                try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": "yes"}"#), status: 400,
                code: "invalid-field")
            // Its deletion is not a change to it: a moved namespace is deleted from its old shard frozen.
            _ = try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": true}"#)
            #expect(try server.delete("/v1/namespaces/moving").status == 204)
        }
    }

    /// `POST /v1/reset` deletes through every namespace: with one frozen it is refused, naming it, and empties
    /// nothing; once thawed it goes on.
    @Test func aResetOfEverythingIsRefusedWhileANamespaceIsFrozen() throws {
        try withDaemon { server in
            _ = try server.post("/v1/namespaces/moving/apps", #"{"id": "mail", "bundleId": "com.example.mail"}"#)
            _ = try server.post("/v1/apps", #"{"id": "mail", "bundleId": "com.example.mail"}"#)
            #expect(try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": true}"#).status == 200)
            let refused = try server.post("/v1/reset", "")
            expectProblem(refused, status: 409, code: "namespace-frozen")
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.string("detail")?.contains("moving") == true, "\(refused.text)")
            #expect(try server.get("/v1/namespaces/moving/apps/mail").status == 200)
            #expect(try server.get("/v1/apps/mail").status == 200, "nothing was emptied")
            expectProblem(try server.post("/v1/namespaces/moving/reset", ""), status: 409, code: "namespace-frozen")

            #expect(try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": false}"#).status == 200)
            #expect(try server.post("/v1/reset", "").status == 204)
            #expect(try server.get("/v1/namespaces/moving/apps/mail").status == 404)
            #expect(try server.get("/v1/apps/mail").status == 404)
        }
    }

    @Test func aFreezeSurvivesARestart() throws {
        try withTemporaryDirectory { directory in
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory))
                defer { server.stop() }
                _ = try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": true, "ttlSeconds": 600}"#)
            }
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            #expect(try server.get("/v1/namespaces/moving").object["frozen"] as? Bool == true)
            expectProblem(
                try server.post("/v1/namespaces/moving/devices", #"{"id": "d"}"#), status: 409, code: "namespace-frozen"
            )
        }
    }

    /// Writers post while the namespace is frozen: every change acknowledged is in what is read right after the
    /// freeze is answered (it waited for those under way), and none is acknowledged after.
    @Test func aFreezeIsAnsweredOnlyOnceTheChangesUnderWayAre() throws {
        try withDaemon { server in
            _ = try server.request("PUT", "/v1/namespaces/moving", body: "{}")
            for index in 0..<4 {
                _ = try server.post("/v1/namespaces/moving/apps", #"{"id": "a\#(index)", "bundleId": "com.example.a"}"#)
            }
            let acknowledged = Protected<[String: Set<Int>]>([:])
            let writers = DispatchGroup()
            let stop = Protected(false)
            // Which round of the test it is, and the writers refused in it: a refused writer has heard the answers
            // to all it posted before, and waits for the next round (the thaw) to post again.
            let round = Protected(0)
            let refused = Protected<Set<Int>>([])
            for index in 0..<4 {
                DispatchQueue.global().async(group: writers) {
                    while !stop.get() {
                        let current = round.get()
                        guard
                            let reply = try? server.post(
                                "/v1/namespaces/moving/apps/a\(index)/events",
                                #"[{"type": "launch"}, {"type": "terminate"}]"#),
                            reply.status == 200
                        else {
                            refused.update { _ = $0.insert(index) }
                            _ = eventually(seconds: 60) { stop.get() || round.get() != current }
                            continue
                        }
                        let seqs = reply.entries.compactMap { $0["seq"] as? Int }
                        acknowledged.update { $0["a\(index)", default: []].formUnion(seqs) }
                    }
                }
            }
            // Rounds of changes, a freeze, a read: the read holds every change acknowledged so far.
            var read: [String: Set<Int>] = [:]
            for number in 1...5 {
                refused.set([])
                _ = try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": false}"#)
                round.set(number)
                let before = acknowledged.get().values.map(\.count).reduce(0, +)
                #expect(
                    eventually { acknowledged.get().values.map(\.count).reduce(0, +) >= before + 20 }, "round \(number)"
                )
                let frozen = try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": true}"#)
                #expect(frozen.status == 200)
                for index in 0..<4 {
                    let device = try #require(server.get("/v1/namespaces/moving/apps/a\(index)").string("device"))
                    let items = try server.allEntries("/v1/namespaces/moving/devices/\(device)/timeline", limit: 1000)
                    read["a\(index)"] = Set(
                        items.filter { $0["app"] as? String == "a\(index)" }.compactMap { $0["seq"] as? Int })
                }
                // Every writer has heard the answers to what it posted before the freeze once the frozen namespace
                // refuses it.
                #expect(eventually { refused.get().count == 4 }, "round \(number)")
                for (app, seqs) in acknowledged.get() {
                    let missing = seqs.subtracting(read[app] ?? [])
                    #expect(
                        missing.isEmpty,
                        "round \(number), \(app): \(missing.count) acknowledged entries not read after the freeze")
                }
            }
            stop.set(true)
            writers.wait()
        }
    }
}

/// An import is one change: a freeze asked while it runs waits for it, and it runs (or rolls back) whole.
@Suite struct ImportUnderFreezeTests {
    /// A freeze that comes while an import runs either waits for its writing (the import applied whole) or
    /// comes before it (the import fails, and nothing of it is in the namespace).
    @Test func aFreezeDuringAnImportLeavesItWholeOrAbsent() throws {
        try withDaemon { server in
            _ = try server.request("PUT", "/v1/namespaces/moving", body: "{}")
            var steps = [#"{"do": "POST /v1/devices", "body": {"id": "d"}, "status": 201}"#]
            for index in 0..<300 {
                steps.append(
                    #"{"do": "POST /v1/apps", "body": {"id": "a\#(index)", "device": "d", "bundleId": "b"}, "status": 201}"#
                )
            }
            let body = #"{"name": "many", "source": "s", "steps": [\#(steps.joined(separator: ","))]}"#
            let imported = Protected<Reply?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                imported.set(try? server.post("/v1/namespaces/moving/import", body))
                done.signal()
            }
            let frozen = try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": true}"#)
            #expect(frozen.status == 200)
            #expect(done.wait(timeout: .now() + 30) == .success)
            let apps = try server.get("/v1/namespaces/moving").int("apps")
            switch imported.get()?.status {
            case 200: #expect(apps == 300)
            case 409: #expect(apps == 0, "\(imported.get()?.text ?? "")")
            default: Issue.record("the import answered \(imported.get()?.text ?? "nothing")")
            }
        }
    }
}
