import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleServer
import LifecycleTesting
import TestSupport
import Testing

/// A full disk, acted out with a database that cannot grow: writes end cleanly and a restart resumes them.
@Suite struct StoreFailureTests {
    static func push(_ index: Int) -> String {
        // A large payload fills the small database in a few records.
        let filler = String(repeating: "x", count: 16_000)
        return #"{"type": "remoteNotification", "payload": {"n": \#(index), "filler": "\#(filler)"}}"#
    }

    @Test func aFullDiskAnswers503WithoutPathsKeepsReadsAndARestartLosesNothingAcknowledged() throws {
        try withTemporaryDirectory { directory in
            var acknowledged: Set<Int> = []
            var failedIndex = -1
            do {
                // On a clock that does not move, a write waiting for durability never reaches its deadline.
                let server = try TestDaemon(
                    store: .sqliteFull(directory: directory, pageLimit: 60),
                    configure: { $0.clock = ManualHostClock() })
                defer { server.stop() }
                try server.createDevice(#"{"id": "d"}"#)
                try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
                try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#, headers: [("Idempotency-Key", "ok")])
                var failure: Reply?
                for index in 0..<200 {
                    let reply = try server.post(
                        "/v1/apps/a/events", Self.push(index), headers: [("Idempotency-Key", "k\(index)")])
                    if reply.status == 200 {
                        acknowledged.formUnion(seqs(reply.entries))
                        continue
                    }
                    failure = reply
                    failedIndex = index
                    break
                }
                let failed = try #require(failure, "the database never filled up")
                expectProblem(failed, status: 503, code: "not-ready")
                for leak in [directory, "lifecycled.sqlite3", "INSERT", "SQL"] {
                    #expect(!failed.text.contains(leak), "the 503 shows \(leak): \(failed.text)")
                }
                #expect(server.storeFailures.get() == 1)

                // Ready no more, and it says why (without a path).
                let ready = try server.get("/readyz")
                expectProblem(ready, status: 503, code: "not-ready")
                #expect(ready.string("detail")?.contains("full") == true, "\(ready.text)")
                #expect(!ready.text.contains(directory))

                // An idempotent retry of the failed request gets an answer at once (not at the deadline of a wait
                // for durability, which the clock never reaches), and so does any other write.
                let retry = try server.post(
                    "/v1/apps/a/events", Self.push(failedIndex), headers: [("Idempotency-Key", "k\(failedIndex)")])
                expectProblem(retry, status: 503, code: "not-ready")
                expectProblem(
                    try server.post("/v1/apps/a/events", #"{"type": "homeButton"}"#), status: 503, code: "not-ready")
                expectProblem(try server.post("/v1/devices", "{}"), status: 503, code: "not-ready")

                // Reads go on, and show only what was made durable.
                #expect(try server.get("/v1/apps/a").status == 200)
                let shown = Set(seqs(try server.allEntries("/v1/apps/a/timeline")))
                #expect(acknowledged.isSubset(of: shown))
            }

            // The fault is cleared (no page limit) and the daemon restarted: every acknowledged entry is there,
            // the failed request was never applied, and writes resume.
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            #expect(try server.get("/readyz").status == 200)
            let entries = try server.allEntries("/v1/apps/a/timeline")
            #expect(acknowledged.isSubset(of: Set(seqs(entries))))
            let notified = entries.compactMap { entry -> Int? in
                ((entry["args"] as? [String: Any])?["remoteNotification"] as? [String: Any])?["n"] as? Int
            }
            #expect(!notified.contains(failedIndex))
            let retry = try server.postEvents(
                "/v1/apps/a/events", Self.push(failedIndex), headers: [("Idempotency-Key", "k\(failedIndex)")])
            #expect(retry.header("Idempotent-Replayed") == nil)
            let replay = try server.postEvents(
                "/v1/apps/a/events", #"{"type": "launch"}"#, headers: [("Idempotency-Key", "ok")])
            #expect(replay.header("Idempotent-Replayed") == "true")
            try server.postEvents("/v1/apps/a/events", #"{"type": "homeButton"}"#)
        }
    }
}
