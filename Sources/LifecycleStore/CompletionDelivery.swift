import Foundation

/// Runs the completions of committed groups on a thread of its own (`lcd.complete`), so that the writer goes
/// straight on to the next group's write and `fdatasync` while the previous group's answers are published.
///
/// Groups are delivered one at a time in the order they were committed, each one's completions in the order
/// their operations were accepted: the total order the writer alone gave them before, so per stream (per
/// device) too. A group is handed over only after its `COMMIT` returned, so no completion runs before its
/// record is durable. At most `depth` groups wait here or run: a writer further ahead would only commit
/// smaller groups whose answers still wait for the ones before, so it waits for room instead and then takes
/// everything queued meanwhile in one group.
final class CompletionDelivery: @unchecked Sendable {
    /// A committed group: its operations and how the commit ended (`nil`: durable).
    private struct Group {
        let operations: [PendingOperation]
        let failure: StoreError?
        let handedAt: UInt64
    }

    /// The writer writes group N+1 while group N's completions run, and waits while N−1's still do.
    static let depth = 2

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var groups: [Group] = []
    /// Groups handed over and not yet completed: those waiting and the one running.
    private var outstanding = 0
    private var stopping = false
    private var stopped = false
    /// Set once, by `start`, before the thread runs.
    private var thread: Thread?
    /// For tests: runs on this thread before each group's completions, so a test can hold them.
    package var beforeGroup: (@Sendable () -> Void)? {
        get { condition.withLock { hook } }
        set { condition.withLock { hook = newValue } }
    }
    private var hook: (@Sendable () -> Void)?

    private let trace: SlowTrace?
    /// Told, on this thread, how many operations a group held once all their completions ran; set once, by
    /// `start`.
    private var delivered: @Sendable (Int) -> Void = { _ in }

    init(trace: SlowTrace?) {
        self.trace = trace
    }

    /// Starts the thread, which tells `delivered` how many operations each group held once their completions ran.
    func start(telling delivered: @escaping @Sendable (Int) -> Void) {
        self.delivered = delivered
        let thread = Thread { [self] in
            SlowTrace.nameThisThread("lcd.complete")
            run()
        }
        thread.name = "lifecycled.store.completions"
        self.thread = thread
        thread.start()
    }

    /// Whether the caller is this thread: a completion that flushes or closes the journal must not wait
    /// for itself.
    var isCurrentThread: Bool { Thread.current === thread }

    /// Blocks the writer while `depth` groups are outstanding. Returns how long it waited, in nanoseconds
    /// (0 without a trace).
    func waitForRoom() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        guard outstanding >= Self.depth else { return 0 }
        let started = trace == nil ? 0 : SlowTrace.now()
        while outstanding >= Self.depth { condition.wait() }
        return trace == nil ? 0 : SlowTrace.now() - started
    }

    /// Hands over a committed (or failed) group; returns at once.
    func deliver(_ operations: [PendingOperation], failure: StoreError?) {
        let group = Group(operations: operations, failure: failure, handedAt: trace == nil ? 0 : SlowTrace.now())
        condition.lock()
        defer { condition.unlock() }
        groups.append(group)
        outstanding += 1
        condition.broadcast()
    }

    /// Runs every group handed over, then stops the thread; returns once it has.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
    }

    private func run() {
        condition.lock()
        while true {
            while groups.isEmpty && !stopping { condition.wait() }
            if groups.isEmpty { break }
            let group = groups.removeFirst()
            let hook = hook
            condition.unlock()

            hook?()
            let started = trace == nil ? 0 : SlowTrace.now()
            for operation in group.operations { operation.complete(failure: group.failure) }
            delivered(group.operations.count)
            if let trace {
                let done = SlowTrace.now()
                trace.note(
                    "completions", from: group.handedAt, to: done,
                    phases: ["waited": started - group.handedAt, "run": done - started],
                    detail: ["operations": "\(group.operations.count)"])
            }

            condition.lock()
            outstanding -= 1
            condition.broadcast()
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
