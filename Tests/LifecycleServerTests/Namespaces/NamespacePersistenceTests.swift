import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleStore
import LifecycleTesting
import Locking
import Logging
import Synchronization
import TestSupport
import Testing

@testable import LifecycleServer

/// Namespaces across restarts, and their TTL on an injected wall clock.
@Suite("Namespaces persist and expire")
struct NamespacePersistenceTests {
    /// A wall clock the test moves: the sweeps (one a second) run as it passes them.
    static func clocked(_ clock: ManualHostClock) -> (inout ServiceOptions) -> Void {
        { options in options.clock = clock }
    }

    static func names(_ server: TestDaemon) throws -> [String] {
        let items = try server.get("/v1/namespaces").object["items"] as? [[String: Any]]
        return items?.compactMap { $0["id"] as? String } ?? []
    }

    @Test("A restart brings back every namespace, its settings, devices and apps, the same ids apart")
    func restart() throws {
        try withTemporaryDirectory { directory in
            let clock = ManualHostClock(now: 1_800_000_000)
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                for (prefix, events) in [("/v1", 1), ("/v1/namespaces/one", 2), ("/v1/namespaces/two", 3)] {
                    #expect(try server.post("\(prefix)/devices", #"{"id": "d"}"#).status == 201)
                    _ = try server.post("\(prefix)/apps", #"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
                    for _ in 0..<events { _ = try server.post("\(prefix)/apps/a/events", #"{"type": "launch"}"#) }
                }
                let put = try server.request("PUT", "/v1/namespaces/one", body: #"{"labels": {"team": "mail"}}"#)
                #expect(put.status == 200)
                _ = try server.request("PUT", "/v1/namespaces/empty", body: #"{"ttlSeconds": 600}"#)
            }
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                let names = (try server.get("/v1/namespaces").object["items"] as? [[String: Any]])?.compactMap {
                    $0["id"] as? String
                }
                #expect(names == ["default", "empty", "one", "two"])
                #expect(canonical(try server.get("/v1/namespaces/one").object["labels"]!) == #"{"team":"mail"}"#)
                #expect(try server.get("/v1/namespaces/empty").int("ttlSeconds") == 600)
                for prefix in ["/v1", "/v1/namespaces/one", "/v1/namespaces/two"] {
                    #expect(try server.get("\(prefix)/apps/a").string("state") == "active")
                    #expect(try server.get("\(prefix)/devices/d").status == 200)
                }
                #expect(try server.get("/v1/namespaces/two").int("apps") == 1)
            }
        }
    }

    @Test("A namespace idle for its TTL goes, a used one stays; the expiry is durable")
    func ttlExpiry() throws {
        try withTemporaryDirectory { directory in
            let clock = ManualHostClock(now: 1_800_000_000)
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                for name in ["idle", "busy"] {
                    #expect(
                        try server.request("PUT", "/v1/namespaces/\(name)", body: #"{"ttlSeconds": 10}"#).status == 201)
                    _ = try server.post("/v1/namespaces/\(name)/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
                }
                let poll = Background { try server.get("/v1/namespaces/idle/apps/a/timeline?after=0&wait=30") }
                #expect(eventually { server.service.parked.load(ordering: .relaxed) == 1 })
                clock.advance(by: 6)
                #expect(try server.get("/v1/namespaces/busy/apps/a").status == 200)
                clock.advance(by: 6)
                // Watched through the list, which names no namespace (a GET of one would keep it alive).
                #expect(eventually { (try? Self.names(server)) == ["busy", "default"] })
                expectProblem(try poll.join(), status: 410, code: "gone")
                clock.advance(by: 11)
                #expect(eventually { (try? Self.names(server)) == ["default"] })
            }
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/idle").status == 404)
                #expect(try server.get("/v1/namespaces/busy").status == 404)
                let names = (try server.get("/v1/namespaces").object["items"] as? [[String: Any]])?.count
                #expect(names == 1)
            }
        }
    }

    @Test("A frozen namespace never expires, by a sweep or at start; thawed, it expires once idle for its TTL")
    func frozenNamespacesDoNotExpire() throws {
        try withTemporaryDirectory { directory in
            let clock = ManualHostClock(now: 1_800_000_000)
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                let put = try server.request("PUT", "/v1/namespaces/moving", body: #"{"ttlSeconds": 10}"#)
                #expect(put.status == 201)
                _ = try server.post("/v1/namespaces/moving/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
                #expect(try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": true}"#).status == 200)
                clock.advance(by: 60)
                for _ in 0..<3 { server.service.application.sweepNamespaces() }
                #expect(try Self.names(server) == ["default", "moving"])
            }
            clock.advance(by: 60)
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                #expect(try Self.names(server) == ["default", "moving"], "not expired at start either")
                #expect(try server.get("/v1/namespaces/moving/apps/a").status == 200)
                #expect(try server.request("PUT", "/v1/namespaces/moving", body: #"{"frozen": false}"#).status == 200)
                clock.advance(by: 5)
                server.service.application.sweepNamespaces()
                #expect(try Self.names(server) == ["default", "moving"], "thawed, it is idle from then on")
                clock.advance(by: 6)
                #expect(eventually { (try? Self.names(server)) == ["default"] })
            }
        }
    }

    @Test("A namespace whose TTL passed while the daemon was down is gone at start, and stays gone")
    func ttlPassedWhileDown() throws {
        try withTemporaryDirectory { directory in
            let clock = ManualHostClock(now: 1_800_000_000)
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                #expect(try server.request("PUT", "/v1/namespaces/ci-1", body: #"{"ttlSeconds": 60}"#).status == 201)
                #expect(try server.request("PUT", "/v1/namespaces/ci-2", body: #"{"ttlSeconds": 600}"#).status == 201)
                for name in ["ci-1", "ci-2"] {
                    _ = try server.post("/v1/namespaces/\(name)/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
                }
            }
            clock.advance(by: 120)
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(clock)) {
                (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/ci-1").status == 404)
                #expect(try server.get("/v1/namespaces/ci-2/apps/a").status == 200)
            }
            let turnedBack = ManualHostClock(now: clock.now - 100)
            try withDaemon(store: .sqlite(directory: directory), configure: Self.clocked(turnedBack)) {
                (server: TestDaemon) throws in
                // Even with the clock turned back, an expired namespace never comes back.
                #expect(try server.get("/v1/namespaces/ci-1").status == 404)
                #expect(try server.get("/v1/namespaces/ci-1/apps/a").status == 404)
            }
        }
    }

    @Test("A deleted namespace stays deleted across a restart, and its name can hold new devices")
    func deletionIsDurable() throws {
        try withTemporaryDirectory { directory in
            try withDaemon(store: .sqlite(directory: directory)) { (server: TestDaemon) throws in
                _ = try server.post("/v1/namespaces/gone/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
                _ = try server.post("/v1/namespaces/gone/devices", #"{"id": "d"}"#)
                #expect(try server.delete("/v1/namespaces/gone").status == 204)
                #expect(try server.post("/v1/namespaces/gone/devices", #"{"id": "d2"}"#).status == 201)
            }
            try withDaemon(store: .sqlite(directory: directory)) { (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/gone/apps/a").status == 404)
                #expect(try server.get("/v1/namespaces/gone/devices/d").status == 404)
                #expect(try server.get("/v1/namespaces/gone/devices/d2").status == 200)
                #expect(try server.get("/v1/namespaces/gone").int("devices") == 1)
            }
        }
    }

    @Test("Devices left by a deletion cut short after the namespace's settings went are dropped at start")
    func deletionCutShort() throws {
        try withTemporaryDirectory { directory in
            try withDaemon(store: .sqlite(directory: directory)) { (server: TestDaemon) throws in
                _ = try server.post("/v1/namespaces/ghost/apps", #"{"id": "a", "bundleId": "com.example.a"}"#)
                #expect(try server.post("/v1/namespaces/ghost/devices", #"{"id": "d"}"#).status == 201)
            }
            // What a crash right after the first step of DELETE /v1/namespaces/ghost leaves.
            var logger = Logger(label: "NamespacePersistenceTests")
            logger.logLevel = .error
            let journal = try SQLiteJournal(directory: directory, logger: logger)
            journal.deleteStream(Namespace.settingsPrefix + "ghost")
            journal.flush()
            journal.close()
            try withDaemon(store: .sqlite(directory: directory)) { (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/ghost").status == 404)
                #expect(try Self.names(server) == ["default"])
                // The name starts afresh: the old device is not there to collide with a new one.
                #expect(try server.post("/v1/namespaces/ghost/devices", #"{"id": "d"}"#).status == 201)
            }
            try withDaemon(store: .sqlite(directory: directory)) { (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/ghost").int("devices") == 1)
                #expect(try server.get("/v1/namespaces/ghost").int("apps") == 0)
            }
        }
    }
}
