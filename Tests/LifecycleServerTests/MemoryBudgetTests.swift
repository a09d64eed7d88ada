import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// One budget of what clients make the daemon hold (`MemoryBudget`): remembered answers are bounded and
/// evicted, descriptions refused once they would not fit, daemon-wide and per namespace.
@Suite struct MemoryBudgetTests {
    /// An app whose description is about `bytes` long (its restorable state).
    static func largeApp(_ id: String, bytes: Int = 60_000) -> String {
        #"{"id": "\#(id)", "bundleId": "com.example.\#(id)", "restorableState": {"blob": "\#(String(repeating: "x", count: bytes))"}}"#
    }

    @Test func rememberedAnswersOfADeviceStayWithinTheirBytesAndTheOldestGoFirst() throws {
        try withDaemon { server in
            #expect(try server.post("/v1/apps", Self.largeApp("big")).status == 201)
            let first = try server.post(
                "/v1/apps/big/events", #"{"type": "launch"}"#, headers: [("Idempotency-Key", "k0")])
            #expect(first.status == 200)
            // Each answer holds the app as it is: 60 KB. Forty of them pass the device's 1 MiB of answers.
            for index in 1...40 {
                let answer = try server.post(
                    "/v1/apps/big/events", #"{"type": "memoryWarning"}"#, headers: [("Idempotency-Key", "k\(index)")])
                #expect(answer.status == 200, "\(answer.text)")
            }
            let host = try #require(server.service.registry.app("big"))
            #expect(host.held.answers <= 1 << 20, "answers held: \(host.held.answers)")
            #expect(host.held.answers > 512 << 10)
            // The newest is still replayed; the oldest went, so its retry is applied anew.
            let newest = try server.post(
                "/v1/apps/big/events", #"{"type": "memoryWarning"}"#, headers: [("Idempotency-Key", "k40")])
            #expect(newest.header("Idempotent-Replayed") == "true")
            let oldest = try server.post(
                "/v1/apps/big/events", #"{"type": "launch"}"#, headers: [("Idempotency-Key", "k0")])
            #expect(oldest.header("Idempotent-Replayed") == nil)
            // They count in the daemon's budget.
            #expect(server.service.application.memoryBudget.total >= host.held.answers + host.held.state)
        }
    }

    @Test func descriptionsThatDoNotFitTheDaemonsBudgetAreRefusedAndChangeNothing() throws {
        try withDaemon(configure: { $0.memoryBytes = 1 << 20 }) { server in
            var created = 0
            var refusal: Reply?
            for index in 0..<40 {
                let reply = try server.post("/v1/apps", Self.largeApp("a\(index)"))
                if reply.status == 201 {
                    created += 1
                } else {
                    refusal = reply
                    break
                }
            }
            let refused = try #require(refusal)
            expectProblem(refused, status: 507, code: "memory-budget-exceeded")
            #expect(refused.string("budget") == "daemon")
            #expect(refused.int("limit") == 1 << 20)
            #expect(refused.string("detail")?.contains("--memory-bytes") == true)
            // About 1 MiB of 60 KB apps (and the devices made for them), and what was refused is not there.
            #expect((8...16).contains(created), "\(created) apps created")
            #expect(try server.get("/v1/apps/a\(created)").status == 404)
            #expect(
                eventually { server.service.application.memoryBudget.total <= 1 << 20 },
                "\(server.service.application.memoryBudget.total)")
            // Deleting frees room.
            #expect(try server.delete("/v1/apps/a0").status == 204)
            #expect(try server.post("/v1/apps", Self.largeApp("again")).status == 201)
        }
    }

    @Test func theBudgetHoldsWhatEveryDeviceSaysItHoldsAfterEachChangeAndNothingOfADeletedOne() throws {
        try withDaemon { server in
            for device in 0..<2 {
                #expect(try server.post("/v1/devices", #"{"id": "d\#(device)"}"#).status == 201)
                #expect(
                    try server.post(
                        "/v1/apps",
                        #"{"id": "a\#(device)", "device": "d\#(device)", "bundleId": "com.example.a\#(device)"}"#
                    ).status == 201)
            }
            let budget = server.service.application.memoryBudget
            let hosts = try (0..<2).map { try #require(server.service.registry.device("d\($0)")) }
            // Each change tells the budget again what its device holds: the totals move by the difference.
            for type in ["launch", "homeButton", "launch"] {
                for device in 0..<2 {
                    #expect(try server.post("/v1/apps/a\(device)/events", #"{"type": "\#(type)"}"#).status == 200)
                    #expect(budget.total == hosts.map(\.held.total).reduce(0, +))
                }
            }
            #expect(try server.delete("/v1/devices/d1").status == 204)
            #expect(budget.total == hosts[0].held.total)
        }
    }

    @Test func aNamespaceHasABudgetOfItsOwn() throws {
        try withDaemon(configure: { $0.namespaceMemoryBytes = 1 << 20 }) { server in
            var refused: Reply?
            for index in 0..<40 {
                let reply = try server.post("/v1/namespaces/greedy/apps", Self.largeApp("a\(index)"))
                if reply.status != 201 {
                    refused = reply
                    break
                }
            }
            let refusal = try #require(refused)
            expectProblem(refusal, status: 507, code: "memory-budget-exceeded")
            #expect(refusal.string("budget") == "namespace")
            #expect(refusal.string("detail")?.contains("greedy") == true)
            // Another namespace is not held by it.
            #expect(try server.post("/v1/namespaces/other/apps", Self.largeApp("b")).status == 201)
        }
    }

    @Test func anImportWhoseDescriptionsDoNotFitFailsAtTheStepAndLeavesNothing() throws {
        try withDaemon(configure: { $0.namespaceMemoryBytes = 1 << 20 }) { server in
            var steps: [String] = []
            for index in 0..<30 {
                steps.append(
                    #"{"do": "POST /v1/apps", "body": \#(Self.largeApp("a\(index)", bytes: 50_000)), "status": 201}"#)
            }
            let failed = try server.post(
                "/v1/namespaces/big/import",
                #"{"name": "big", "source": "test", "steps": [\#(steps.joined(separator: ","))]}"#)
            // Its steps run against the same budget: the step that passes it fails, and the import with it.
            expectProblem(failed, status: 409, code: "import-failed")
            #expect((failed.int("step") ?? 0) > 10, "\(failed.text)")
            #expect(failed.string("detail")?.contains("507") == true, "\(failed.text)")
            #expect(try server.get("/v1/namespaces/big").status == 404)
        }
    }

    @Test func anImportIsHeldToWhatItsNamespaceHoldsAlready() throws {
        try withDaemon(configure: { $0.namespaceMemoryBytes = 1 << 20 }) { server in
            for index in 0..<10 {
                #expect(try server.post("/v1/namespaces/full/apps", Self.largeApp("a\(index)")).status == 201)
            }
            var steps: [String] = []
            for index in 0..<6 {
                steps.append(#"{"do": "POST /v1/apps", "body": \#(Self.largeApp("b\(index)")), "status": 201}"#)
            }
            let failed = try server.post(
                "/v1/namespaces/full/import",
                #"{"name": "more", "source": "test", "steps": [\#(steps.joined(separator: ","))]}"#)
            expectProblem(failed, status: 507, code: "memory-budget-exceeded")
            #expect(try server.get("/v1/namespaces/full").int("apps") == 10)
        }
    }

    @Test func pastTheBudgetTheLargestHoldersGiveUpTheirRememberedAnswers() throws {
        let budget = 2 << 20
        try withDaemon(configure: { $0.memoryBytes = budget }) { server in
            for device in 0..<3 {
                #expect(try server.post("/v1/apps", Self.largeApp("a\(device)", bytes: 30_000)).status == 201)
                for index in 0..<30 {
                    _ = try server.post(
                        "/v1/apps/a\(device)/events", #"{"type": "memoryWarning"}"#,
                        headers: [("Idempotency-Key", "k\(index)")])
                }
            }
            #expect(
                eventually { server.service.application.memoryBudget.total <= budget },
                "\(server.service.application.memoryBudget.total)")
        }
    }
}
