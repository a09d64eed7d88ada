import Dispatch
import Locking
import TestSupport
import Testing

@testable import LifecycleApplication

/// Imports take turns between tenants, run one at a time per tenant, and are dropped once nobody wants them.
@Suite struct ImportQueueTests {
    @Test func aTenantWithOneImportIsNotHeldBehindAnotherTenantsMany() throws {
        let queue = ImportQueue(running: 1, waitingPerTenant: 50, waiting: 100)
        let order = Protected<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        func job(_ tenant: String, _ name: String, holding: Bool = false) -> ImportQueue.Job {
            finished.enter()
            return ImportQueue.Job(
                tenant: tenant,
                run: {
                    if holding { gate.wait() }
                    order.withLock { $0.append(name) }
                    finished.leave()
                },
                unwanted: { nil }, dropped: { _ in finished.leave() })
        }
        try queue.enqueue(job("a", "a0", holding: true))
        for index in 1...20 { try queue.enqueue(job("a", "a\(index)")) }
        try queue.enqueue(job("b", "b0"))
        gate.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        // b's one import runs right after the import of a's that was running, not after a's twenty others.
        #expect(order.get().prefix(2) == ["a0", "b0"], "\(order.get())")
        #expect(order.get().count == 22)
    }

    @Test func anImportNobodyWantsIsDroppedWhenItsTurnComes() throws {
        let queue = ImportQueue(running: 1)
        let gate = DispatchSemaphore(value: 0)
        let ran = Protected<[String]>([])
        let dropped = Protected<[String]>([])
        let gone = Protected(false)
        let finished = DispatchGroup()
        finished.enter()
        try queue.enqueue(
            ImportQueue.Job(
                tenant: "a",
                run: {
                    gate.wait(); ran.withLock { $0.append("first") }; finished.leave()
                }, unwanted: { nil },
                dropped: { _ in finished.leave() }))
        finished.enter()
        try queue.enqueue(
            ImportQueue.Job(
                tenant: "b",
                run: {
                    ran.withLock { $0.append("second") }; finished.leave()
                },
                unwanted: { gone.get() ? "its client went away" : nil },
                dropped: { why in
                    dropped.withLock { $0.append(why) }; finished.leave()
                }))
        gone.set(true)
        gate.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(ran.get() == ["first"])
        #expect(dropped.get() == ["its client went away"])
    }

    @Test func aTenantMayHaveOnlySoManyImportsWaiting() throws {
        let queue = ImportQueue(running: 1, waitingPerTenant: 2, waiting: 3)
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<4 { gate.signal() } }
        func job(_ tenant: String) -> ImportQueue.Job {
            ImportQueue.Job(tenant: tenant, run: { gate.wait() }, unwanted: { nil }, dropped: { _ in })
        }
        try queue.enqueue(job("a"))  // runs
        #expect(eventually { queue.waitingCount == 0 })
        try queue.enqueue(job("a"))
        try queue.enqueue(job("a"))
        #expect(throws: ImportQueue.Refusal.self) { try queue.enqueue(job("a")) }
        try queue.enqueue(job("b"))
        #expect(throws: ImportQueue.Refusal.self) { try queue.enqueue(job("c")) }
    }
}
