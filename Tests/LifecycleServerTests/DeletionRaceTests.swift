import Foundation
import LifecycleCore
@testable import LifecycleHosting
import LifecycleStore
import LifecycleTesting
import Locking
import TestSupport
import Testing

@testable import LifecycleServer

/// Deleting a device or resetting everything while clients post to it: every answer is whole (the write
/// landed before the deletion, or answers 404), nothing deleted comes back after a restart, and the
/// directory always restarts. `LIFECYCLED_RACE_ROUNDS` sets the number of rounds (30 by default).
@Suite struct DeletionRaceTests {
    static var rounds: Int { Int(ProcessInfo.processInfo.environment["LIFECYCLED_RACE_ROUNDS"] ?? "") ?? 30 }
    static let clients = 6

    /// What clients may hear while their device is deleted under them.
    static let wholeAnswers: Set<Int> = [200, 201, 404, 409]

    /// One client: posts to the round's apps and device, and adds apps, until the device is gone.
    static func client(
        _ server: TestDaemon, round: Int, index: Int, posted: Protected<Int>, unexpected: Protected<[String]>
    ) throws {
        let app = "a\(round)-\(index % 3)"
        let requests: [(String, String, [(String, String)])] = [
            ("/v1/apps/\(app)/events", #"{"type": "launch"}"#, []),
            ("/v1/apps/\(app)/events", #"{"type": "homeButton"}"#, [("Idempotency-Key", "k\(round)-\(index)")]),
            ("/v1/devices/d\(round)/events", #"[{"type": "lock"}, {"type": "unlock"}]"#, []),
            ("/v1/apps", #"{"id": "x\#(round)-\#(index)", "device": "d\#(round)", "bundleId": "com.example.x"}"#, []),
            ("/v1/apps/\(app)/events", #"{"type": "advanceTime", "seconds": 1}"#, []),
        ]
        for step in 0..<400 {
            let (path, body, headers) = requests[step % requests.count]
            let reply = try server.post(path, body, headers: headers)
            posted.update { $0 += 1 }
            if !wholeAnswers.contains(reply.status) {
                unexpected.update { $0.append("\(path): \(reply.status) \(reply.text)") }
            }
            // Device events answer 404 once the device is gone: this client is done.
            if reply.status == 404, path.hasPrefix("/v1/devices/") { return }
        }
    }

    static func ids(_ server: TestDaemon, _ path: String) throws -> Set<String> {
        let reply = try server.get(path + "?limit=1000")
        try #require(reply.status == 200, "\(path): \(reply.text)")
        return Set(reply.items.compactMap { $0["id"] as? String })
    }

    @Test func deletesAndResetsUnderLoadNeverBringAnythingBackAndTheDirectoryRestarts() throws {
        try withTemporaryDirectory { directory in
            var devices: Set<String> = []
            var apps: Set<String> = []
            var deleted: Set<String> = []
            do {
                // Frequent snapshots, so that some are taken while a device is being deleted.
                let server = try TestDaemon(store: .sqlite(directory: directory), snapshotEvery: 20)
                defer { server.stop() }
                for round in 0..<Self.rounds {
                    try server.createDevice(#"{"id": "d\#(round)"}"#)
                    for index in 0..<3 {
                        try server.createApp(
                            #"{"id": "a\#(round)-\#(index)", "device": "d\#(round)", "bundleId": "b"}"#)
                    }
                    let posted = Protected(0)
                    let unexpected = Protected<[String]>([])
                    let clients = (0..<Self.clients).map { index in
                        Background {
                            try Self.client(server, round: round, index: index, posted: posted, unexpected: unexpected)
                        }
                    }
                    let resets = round % 5 == 4
                    // A device created while a reset runs lands wholly before it or wholly after it.
                    let creator = resets ? Background { try server.post("/v1/devices", #"{"id": "c\#(round)"}"#) } : nil
                    #expect(eventually { posted.get() >= 2 * round % 40 + 5 })
                    let answer = resets ? try server.post("/v1/reset", "") : try server.delete("/v1/devices/d\(round)")
                    #expect(answer.status == 204, "\(answer.text)")
                    // Once the deletion has answered, nothing of the device is reachable.
                    expectProblem(try server.get("/v1/devices/d\(round)"), status: 404, code: "not-found")
                    for index in 0..<3 {
                        expectProblem(try server.get("/v1/apps/a\(round)-\(index)"), status: 404, code: "not-found")
                    }
                    for client in clients { try client.join() }
                    if let created = try creator?.join() {
                        #expect([201, 409].contains(created.status), "\(created.text)")
                    }
                    #expect(unexpected.get() == [], "round \(round)")
                    // Every app id of the deleted device is free again.
                    for client in 0..<Self.clients {
                        expectProblem(try server.get("/v1/apps/x\(round)-\(client)"), status: 404, code: "not-found")
                    }
                    deleted.insert("d\(round)")
                }
                // An app id of a deleted device can be taken again.
                try server.createApp(#"{"id": "a0-0", "bundleId": "b"}"#)
                devices = try Self.ids(server, "/v1/devices")
                apps = try Self.ids(server, "/v1/apps")
            }
            #expect(devices.isDisjoint(with: deleted))
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            #expect(try Self.ids(server, "/v1/devices") == devices)
            #expect(try Self.ids(server, "/v1/apps") == apps)
        }
    }

    /// A write that looked the device up before its deletion reaches it after: it answers 404 and journals
    /// nothing, and the journal itself refuses the deleted stream, so nothing comes back after a restart.
    @Test func aWriteThatFoundTheDeviceBeforeItsDeletionAnswers404AndJournalsNothing() throws {
        try withTemporaryDirectory { directory in
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory))
                defer { server.stop() }
                try server.createDevice(#"{"id": "d"}"#)
                try server.createApp(#"{"id": "a", "device": "d", "bundleId": "b"}"#)
                let host = try #require(server.service.registry.device("d"))
                #expect(try server.delete("/v1/devices/d").status == 204)

                let outcomes = Protected<[String]>([])
                @Sendable func note<T>(_ result: Result<T, HostError>) {
                    switch result {
                    case .failure(.deviceGone): outcomes.update { $0.append("gone") }
                    default: outcomes.update { $0.append("\(result)") }
                    }
                }
                host.applyEvents(
                    .init(
                        events: [.launch(background: false, url: nil, sourceApplication: nil)],
                        json: ["type": "launch"], app: "a")
                ) { note($0) }
                host.addApp(id: "b", configuration: AppConfiguration(bundleId: "b")) { note($0) }
                host.removeApp(id: "a") { note($0) }
                host.delete(releaseApps: { _ in }) { note($0) }
                #expect(eventually { outcomes.get().count == 4 })
                #expect(outcomes.get() == ["gone", "gone", "gone", "gone"])

                let appended = Protected<Result<UInt64, StoreError>?>(nil)
                server.journal.append(stream: "d", record: [1]) { appended.set($0) }
                #expect(eventually { appended.get() != nil })
                #expect(appended.get() == .failure(.streamDeleted(stream: "d")))
                let snapshot = Protected<Result<Void, StoreError>?>(nil)
                server.journal.saveSnapshot(stream: "d", upTo: 1, state: [1]) { snapshot.set($0) }
                #expect(eventually { snapshot.get() != nil })
                if case .failure(.streamDeleted) = snapshot.get() {
                } else {
                    Issue.record("\(String(describing: snapshot.get()))")
                }
            }
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            #expect(try Self.ids(server, "/v1/devices").isEmpty)
            #expect(try Self.ids(server, "/v1/apps").isEmpty)
            // The id is free: a new device of that name starts a fresh stream.
            try server.createDevice(#"{"id": "d"}"#)
        }
    }
}
