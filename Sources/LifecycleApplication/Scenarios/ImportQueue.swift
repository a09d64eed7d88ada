import Dispatch
import Locking

/// Imports waiting and running. Each tenant (the token an import came with, or its namespace with tokens off)
/// has a queue of its own, run one import at a time; the tenants with an import waiting take turns, and at most
/// `running` imports run at once over the daemon. So one tenant's many imports hold nobody else's for longer
/// than one of them. Each tenant may have `waitingPerTenant` imports waiting, the daemon `waiting`; beyond,
/// `enqueue` refuses.
///
/// A job asks, before it starts and before each of its steps, whether it is still wanted (its client is
/// there, its token still allows it): one that is not is dropped when its turn comes, or stops at its next step.
package final class ImportQueue: Sendable {
    package struct Job: Sendable {
        /// Whose turn it takes: the token's name, or the namespace.
        var tenant: String
        /// Runs the import (on a thread of the queue's).
        var run: @Sendable () -> Void
        /// Why the job is no longer wanted, if it is not; asked when its turn comes.
        var unwanted: @Sendable () -> String?
        /// Answers a job dropped before it ran.
        var dropped: @Sendable (_ why: String) -> Void

        package init(
            tenant: String, run: @escaping @Sendable () -> Void, unwanted: @escaping @Sendable () -> String?,
            dropped: @escaping @Sendable (_ why: String) -> Void
        ) {
            self.tenant = tenant
            self.run = run
            self.unwanted = unwanted
            self.dropped = dropped
        }
    }

    /// Why a job was not taken.
    package enum Refusal: Error {
        case tenantFull(Int)
        case daemonFull(Int)
    }

    let running: Int
    let waitingPerTenant: Int
    let waiting: Int
    private let state = Protected(State())
    private let threads = DispatchQueue(label: "lifecycled.import", attributes: .concurrent)

    private struct State {
        var queues: [String: [Job]] = [:]
        /// Tenants with a job waiting, in the order they take turns.
        var turns: [String] = []
        var busy: Set<String> = []
        var waiting = 0
    }

    package init(running: Int = 2, waitingPerTenant: Int = 4, waiting: Int = 16) {
        self.running = running
        self.waitingPerTenant = waitingPerTenant
        self.waiting = waiting
    }

    /// Imports waiting now (not running).
    package var waitingCount: Int { state.withLock { $0.waiting } }

    /// Imports running now.
    package var runningCount: Int { state.withLock { $0.busy.count } }

    package func enqueue(_ job: Job) throws(Refusal) {
        try state.withLock { state throws(Refusal) in
            let queued = state.queues[job.tenant]?.count ?? 0
            if queued >= waitingPerTenant { throw .tenantFull(waitingPerTenant) }
            if state.waiting >= waiting { throw .daemonFull(waiting) }
            if queued == 0, !state.busy.contains(job.tenant) { state.turns.append(job.tenant) }
            state.queues[job.tenant, default: []].append(job)
            state.waiting += 1
        }
        startNext()
    }

    /// Starts jobs while fewer than `running` run and a tenant that runs none has one waiting.
    private func startNext() {
        while let job = take() {
            threads.async { [self] in
                if let why = job.unwanted() {
                    job.dropped(why)
                } else {
                    job.run()
                }
                finished(job.tenant)
            }
        }
    }

    private func take() -> Job? {
        state.withLock { state -> Job? in
            guard state.busy.count < running, !state.turns.isEmpty else { return nil }
            let tenant = state.turns.removeFirst()
            guard var queue = state.queues[tenant], !queue.isEmpty else { return nil }
            let job = queue.removeFirst()
            state.queues[tenant] = queue.isEmpty ? nil : queue
            state.waiting -= 1
            state.busy.insert(tenant)
            return job
        }
    }

    private func finished(_ tenant: String) {
        state.withLock { state in
            state.busy.remove(tenant)
            // Its next import waits for the tenants that were waiting already.
            if state.queues[tenant] != nil { state.turns.append(tenant) }
        }
        startNext()
    }
}
