import Dispatch
import Foundation
import HTTPServer
import LifecycleApplication
import LifecyclePersistence
import LifecycleStore
import LifecycleTesting
import Locking
import Logging
import TestSupport
import Testing

@testable import LifecycleServer

/// An import is whole or absent: its steps run apart, and what they made is written under a marker that
/// recovery rolls back when a crash cut the writing (`ImportMarker`).
@Suite struct ImportAtomicityTests {
    /// A scenario creating `devices` devices with an app each, then failing at its last step if `failing`.
    static func scenario(devices: Int, failing: Bool = false) -> String {
        var steps: [String] = []
        for index in 0..<devices {
            steps.append(#"{"do": "POST /v1/devices", "body": {"id": "d\#(index)"}, "status": 201}"#)
            steps.append(
                #"{"do": "POST /v1/apps", "body": {"id": "a\#(index)", "device": "d\#(index)", "bundleId": "b"}, "status": 201}"#
            )
            steps.append(#"{"do": "POST /v1/apps/a\#(index)/events", "body": {"type": "launch"}, "status": 200}"#)
        }
        if failing { steps.append(#"{"do": "GET /v1/apps/a0", "expect": {"state": "notRunning"}}"#) }
        return #"{"name": "many", "source": "test", "steps": [\#(steps.joined(separator: ","))]}"#
    }

    @Test func aFailedImportLeavesNotEvenTheNamespaceItWouldHaveCreated() throws {
        try withDaemon { server in
            let failed = try server.post("/v1/namespaces/fresh/import", Self.scenario(devices: 3, failing: true))
            expectProblem(failed, status: 409, code: "import-failed")
            #expect(try server.get("/v1/namespaces/fresh").status == 404)
            let names = try server.get("/v1/namespaces").items.map { $0["id"] as? String }
            #expect(names == ["default"], "\(names)")
        }
    }

    @Test func whatAnImportMakesIsSeenOnlyOnceItIsWhole() throws {
        let clock = HeldClock()
        try withDaemon(configure: { $0.clock = clock }) { server in
            let body = Self.scenario(devices: 60)
            // Held once some 30 of its 60 devices are made (a step reads the clock once or twice): the moment a
            // namespace that showed what an import made as it went would show half of it.
            clock.hold(after: 120)
            let answered = DispatchSemaphore(value: 0)
            let answer = Protected<Reply?>(nil)
            DispatchQueue.global().async {
                answer.set(try? server.post("/v1/namespaces/whole/import", body))
                answered.signal()
            }
            #expect(eventually(seconds: 60) { clock.isHolding })
            #expect(server.service.application.imports.runningCount == 1)
            expectProblem(try server.get("/v1/namespaces/whole"), status: 404, code: "not-found")
            expectProblem(try server.get("/v1/namespaces/whole/devices/d0"), status: 404, code: "not-found")
            #expect(!(try server.get("/v1/namespaces").items.contains { $0["id"] as? String == "whole" }))
            clock.release()
            // From there to its answer (the devices written in), the namespace is absent or whole: never some of
            // the devices.
            var seen: Set<Int> = []
            while answered.wait(timeout: .now() + .milliseconds(1)) == .timedOut {
                let namespace = try server.get("/v1/namespaces/whole")
                seen.insert(namespace.status == 404 ? 0 : namespace.int("devices") ?? -1)
            }
            #expect(answer.get()?.status == 200, "\(answer.get()?.text ?? "")")
            #expect(seen.isSubset(of: [0, 60]), "devices seen during the import: \(seen.sorted())")
            #expect(try server.get("/v1/namespaces/whole").int("devices") == 60)
        }
    }

    @Test func anImportCutByACrashIsTakenAwayAtTheNextStart() throws {
        try TemporaryDirectory.with { (directory: TemporaryDirectory) throws in
            let crashing = try CrashingJournal(directory: directory)
            try withDaemon(store: .journal(crashing)) { (server: TestDaemon) throws in
                #expect(try server.post("/v1/devices", #"{"id": "kept"}"#).status == 201)
                let cut = try server.post("/v1/namespaces/cut/import", Self.scenario(devices: 5))
                expectProblem(cut, status: 409, code: "import-failed")
                #expect(crashing.crashed)
            }
            // The marker, the namespace and the five devices were written and durable; the commit was not.
            try withDaemon(store: .sqlite(directory: directory.path)) { (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/cut").status == 404)
                #expect(try server.get("/v1/devices").items.map { $0["id"] as? String } == ["kept"])
                let left = try server.journal.recover().map(\.stream).filter {
                    $0.hasPrefix("cut/") || $0 == "@namespace/cut" || ImportMarker.isMarker($0)
                }
                #expect(left.isEmpty, "streams left of the cut import: \(left)")
            }
            // Taken away for good: a third start finds nothing of it either.
            try withDaemon(store: .sqlite(directory: directory.path)) { (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/cut").status == 404)
                #expect(try server.journal.recover().contains { $0.stream == "kept" })
            }
        }
    }

    @Test func anImportIntoAnExistingNamespaceCutByACrashLeavesWhatWasThere() throws {
        try TemporaryDirectory.with { (directory: TemporaryDirectory) throws in
            try withDaemon(store: .journal(CrashingJournal(directory: directory))) { (server: TestDaemon) throws in
                #expect(try server.post("/v1/namespaces/team/devices", #"{"id": "old"}"#).status == 201)
                expectProblem(
                    try server.post("/v1/namespaces/team/import", Self.scenario(devices: 2)), status: 409,
                    code: "import-failed")
            }
            try withDaemon(store: .sqlite(directory: directory.path)) { (server: TestDaemon) throws in
                #expect(try server.get("/v1/namespaces/team/devices").items.map { $0["id"] as? String } == ["old"])
            }
        }
    }

    @Test func anImportWhoseClientLeavesStopsAndLeavesNothing() throws {
        let clock = HeldClock()
        try withDaemon(transport: .live, configure: { $0.clock = clock }) { server in
            // Held part-way through its 30 steps (a step reads the clock once or twice) until its client is gone.
            clock.hold(after: 20)
            let client = try TestHTTPClient(port: server.port)
            try client.sendRequest(
                method: "POST", path: "/v1/namespaces/left/import", headers: [("Content-Type", "application/json")],
                body: Array(Self.scenario(devices: 10).utf8))
            #expect(eventually(seconds: 60) { clock.isHolding && server.service.application.imports.runningCount == 1 })
            withExtendedLifetime(client) {}
            // The client goes away (its socket closes with it). The server tells the import before it closes the
            // connection of the request it parked: once none is open, the import knows.
            _ = consume client
            #expect(eventually(seconds: 60) { server.http.openConnections == 0 })
            clock.release()
            // The import stops at its next step.
            #expect(eventually(seconds: 60) { server.service.application.imports.runningCount == 0 })
            #expect(try server.get("/v1/namespaces/left").status == 404)
            // The same import, its client staying, applies.
            #expect(try server.post("/v1/namespaces/stayed/import", Self.scenario(devices: 10)).status == 200)
        }
    }

    @Test func importsOfATokenThatIsRevokedStopAndLeaveNothing() throws {
        let secret = "import-secret-0123456789"
        let tokens = TokensLiveTests.table([("ci", secret, .write, ["ci-*"])])
        let clock = HeldClock()
        try withDaemon(tokens: tokens, configure: { $0.clock = clock }) { server in
            // The first import is held part-way through its 30 steps (a step reads the clock once or twice) while
            // the second waits and the token is revoked.
            clock.hold(after: 20)
            let bearer = [("Authorization", "Bearer \(secret)")]
            let answers = Protected<[String: Reply]>([:])
            let done = DispatchGroup()
            for name in ["ci-running", "ci-waiting"] {
                done.enter()
                DispatchQueue.global().async {
                    let reply = try? server.post(
                        "/v1/namespaces/\(name)/import", Self.scenario(devices: 10), headers: bearer)
                    answers.withLock { $0[name] = reply }
                    done.leave()
                }
                // The second waits behind the first: one import at a time per token.
                #expect(
                    eventually(seconds: 60) { clock.isHolding && server.service.application.imports.runningCount == 1 })
            }
            #expect(eventually(seconds: 60) { server.service.application.imports.waitingCount == 1 })
            #expect(answers.get().isEmpty, "an import was answered before the token was revoked")
            server.service.setTokens(TokensLiveTests.table([]))
            clock.release()
            #expect(done.wait(timeout: .now() + 60) == .success)
            for name in ["ci-running", "ci-waiting"] {
                let reply = try #require(answers.get()[name])
                expectProblem(reply, status: 409, code: "import-failed")
                #expect(reply.string("detail")?.contains("no longer allows") == true, "\(reply.text)")
            }
            // The first stopped at the step after the one that was held, not at its end.
            let step = answers.get()["ci-running"]?.int("step") ?? 0
            #expect(step > 1 && step < 30, "\(answers.get()["ci-running"]?.text ?? "")")
            server.service.setTokens(nil)
            #expect(try server.get("/v1/namespaces/ci-running").status == 404)
            #expect(try server.get("/v1/namespaces/ci-waiting").status == 404)
        }
    }

    @Test func anImportStepAskingForAnEventStreamIsRefusedAndOpensNone() throws {
        try withDaemon { server in
            let body = #"""
                {"name": "stream", "source": "test", "steps": [
                  {"do": "POST /v1/devices", "body": {"id": "d"}, "status": 201},
                  {"do": "GET /v1/devices/d/timeline", "headers": {"Accept": "text/event-stream"}}]}
                """#
            let refused = try server.post("/v1/namespaces/s/import", body)
            expectProblem(refused, status: 409, code: "import-failed")
            #expect(refused.string("detail")?.contains("event stream") == true, "\(refused.text)")
            #expect(server.service.openEventStreams == 0)
        }
    }

    @Test func anImportIntoAnIdTheNamespaceHoldsFailsAtThatStep() throws {
        try withDaemon { server in
            #expect(try server.post("/v1/namespaces/team/devices", #"{"id": "d0"}"#).status == 201)
            let failed = try server.post("/v1/namespaces/team/import", Self.scenario(devices: 1))
            expectProblem(failed, status: 409, code: "import-failed")
            #expect(failed.int("step") == 1, "\(failed.text)")
            #expect(try server.get("/v1/namespaces/team").int("devices") == 1)
        }
    }
}

/// A journal that dies as a SIGKILL would, just before an import's commit (the deletion of its marker):
/// everything before is durable, nothing after reaches the disk.
final class CrashingJournal: Journal, @unchecked Sendable {
    private let base: SQLiteJournal
    private let dead = Protected(false)
    var crashed: Bool { dead.get() }

    /// A SQLite journal in `directory`, as the next start opens it.
    init(directory: TemporaryDirectory) throws {
        var logger = Logger(label: "lifecycled.tests")
        logger.logLevel = .error
        base = try SQLiteJournal(directory: directory.path, logger: logger)
    }

    var keepsRecords: Bool { base.keepsRecords }
    var diskUse: DiskUse? { base.diskUse }

    private func die() {
        guard !dead.exchange(true) else { return }
        base.flush()
        base.close()
    }

    func append(
        stream: String, record: [UInt8], startsStream: Bool,
        durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        guard !crashed else { return durable(.failure(.closed)) }
        base.append(stream: stream, record: record, startsStream: startsStream, durable: durable)
    }

    func saveSnapshot(stream: String, upTo journalSeq: UInt64, state: [UInt8], durable: DurableCompletion?) {
        guard !crashed else { return durable?(.failure(.closed)) ?? () }
        base.saveSnapshot(stream: stream, upTo: journalSeq, state: state, durable: durable)
    }

    func deleteStream(_ stream: String, durable: DurableCompletion?) {
        if ImportMarker.isMarker(stream) { die() }
        guard !crashed else { return durable?(.failure(.closed)) ?? () }
        base.deleteStream(stream, durable: durable)
    }

    func deleteAll(durable: DurableCompletion?) {
        guard !crashed else { return durable?(.failure(.closed)) ?? () }
        base.deleteAll(durable: durable)
    }

    func flush() { if !crashed { base.flush() } }

    func recover(including: (String) -> Bool, each: (RecoveredStream) throws -> Void) throws {
        try base.recover(including: including, each: each)
    }

    func close() { die() }
}
