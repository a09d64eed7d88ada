import CoreMetrics
import Foundation
import Logging
import Synchronization

/// Snapshots' bytes, in a database of their own written by a thread of its own, so that writing one never
/// holds the journal's appends.
///
/// A snapshot is written and committed here first; only then does the journal name it (a row of its
/// `snapshot` table holding the id given here), in order with the appends, and prune the records it covers.
/// A snapshot that is never named (the stream was deleted or restarted meanwhile, a newer one was named
/// first, or the process stopped before) is an orphan: it is deleted once the journal has committed what
/// made it one, and at the latest when the store is next opened. So the journal never names bytes that are
/// not durable, and the bytes kept here follow the snapshots named.
final class SnapshotStore: @unchecked Sendable {
    /// The file's name inside the data directory.
    static let fileName = "lifecycled-snapshots.sqlite3"
    /// The snapshot store's schema, version 1: one row per snapshot, never reusing an id.
    static let createVersion1 = """
        BEGIN IMMEDIATE;
        CREATE TABLE snapshot_state(id INTEGER PRIMARY KEY AUTOINCREMENT, state BLOB NOT NULL);
        PRAGMA application_id = \(StoreSchema.applicationID);
        PRAGMA user_version = 1;
        COMMIT;
        """

    /// A snapshot written here and not yet named: what the journal needs to name it.
    struct Written {
        let stream: String
        let upTo: UInt64
        let id: Int64
        let durable: DurableCompletion?
    }

    private struct Submitted {
        let stream: String
        let upTo: UInt64
        let state: [UInt8]
        var durable: DurableCompletion?
    }

    let path: String
    private let logger: Logger
    private let trace: SlowTrace?
    /// Hands each committed snapshot to the journal, on this store's thread; set once, by `start`.
    private var written: @Sendable (Written) -> Void = { _ in }
    private var thread: Thread?
    private let metrics = StoreMetrics()

    // Guarded by `condition`; the connection and statements are used only by the store's thread.
    private let condition = NSCondition()
    private var queued: [Submitted] = []
    private var discards: [Int64] = []
    private var accepted: UInt64 = 0
    private var completed: UInt64 = 0
    private var recoveries = 0
    private var stopping = false
    private var stopped = false
    /// For tests: runs on the store's thread before each write, so a test can hold it.
    package var beforeWrite: (@Sendable () -> Void)? {
        get { condition.withLock { hook } }
        set { condition.withLock { hook = newValue } }
    }
    private var hook: (@Sendable () -> Void)?

    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let delete: SQLiteStatement
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    private let rollback: SQLiteStatement
    /// The bytes of the store's live pages, as of its last commit.
    private let usedBytes = Atomic<Int64>(0)

    /// Opens (or creates) the store at `path` and deletes every snapshot not in `named`: those the journal
    /// names are the only ones recovery reads. The caller holds the data directory's lock.
    init(path: String, named: Set<Int64>, logger: Logger, trace: SlowTrace? = nil) throws(StoreError) {
        self.path = path
        self.logger = logger
        self.trace = trace
        connection = try StoreSchema.open(
            path: path, steps: [Self.createVersion1],
            busyTimeoutMilliseconds: SQLiteConnection.defaultBusyTimeoutMilliseconds)
        // This store's commits hold no append: its log is checkpointed inside them, on its own thread, every
        // 4 MiB, and kept no longer than that, so the log adds at most a few snapshots' bytes to the disk.
        try connection.execute(
            "PRAGMA wal_autocheckpoint = 1000; PRAGMA journal_size_limit = 4194304;",
            operation: "configure snapshot store")
        insert = try connection.prepare("INSERT INTO snapshot_state(state) VALUES (?1) RETURNING id")
        delete = try connection.prepare("DELETE FROM snapshot_state WHERE id = ?1")
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        rollback = try connection.prepare("ROLLBACK")
        var orphans: [Int64] = []
        let ids = try connection.prepare("SELECT id FROM snapshot_state")
        defer { ids.finalize() }
        while try ids.step() {
            if !named.contains(ids.int64(0)) { orphans.append(ids.int64(0)) }
        }
        if !orphans.isEmpty {
            try transaction { () throws(StoreError) in try deleteRows(orphans) }
            logger.info(
                "Deleted snapshots no journal row names", metadata: ["count": .stringConvertible(orphans.count)])
        }
        measure()
    }

    /// Starts the store's thread, which hands each snapshot it commits to `written`.
    func start(handing written: @escaping @Sendable (Written) -> Void) {
        self.written = written
        let thread = Thread { [self] in
            SlowTrace.nameThisThread("lcd.snapshots")
            run()
        }
        thread.name = "lifecycled.store.snapshots"
        self.thread = thread
        thread.start()
    }

    /// Queues a snapshot's bytes. Of two snapshots of a stream waiting together only the newer (the higher
    /// `upTo`) is written, and both complete as it does: the queue holds at most one snapshot per stream.
    /// Once the store is stopping, a snapshot fails with `StoreError.closed`.
    func submit(stream: String, upTo: UInt64, state: [UInt8], durable: DurableCompletion?) {
        condition.lock()
        guard !stopping else {
            condition.unlock()
            durable?(.failure(.closed))
            return
        }
        defer { condition.unlock() }
        if let index = queued.firstIndex(where: { $0.stream == stream }) {
            var combined = durable
            if let earlier = queued[index].durable {
                combined = {
                    earlier($0); durable?($0)
                }
            }
            if upTo >= queued[index].upTo {
                queued[index] = Submitted(stream: stream, upTo: upTo, state: state, durable: combined)
            } else {
                queued[index].durable = combined
            }
        } else {
            queued.append(Submitted(stream: stream, upTo: upTo, state: state, durable: durable))
            accepted += 1
        }
        condition.broadcast()
    }

    /// Deletes snapshots the journal no longer names (once that is committed), in the next transaction.
    func discard(_ ids: [Int64]) {
        guard !ids.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        discards += ids
        condition.broadcast()
    }

    /// Blocks until every snapshot submitted before the call was written and handed on, or failed.
    /// From the store's own thread (a failed snapshot's completion) it returns at once.
    func flush() {
        guard Thread.current !== thread else { return }
        condition.lock()
        defer { condition.unlock() }
        let target = accepted
        while completed < target && !stopped { condition.wait() }
    }

    /// Runs `read` with deletions held back, so a snapshot the journal named when `read` began is still
    /// here when `read` looks it up. Reads the bytes of snapshot `id` through the function it passes.
    func whileReading<T>(_ read: ((Int64) throws(StoreError) -> [UInt8]) throws -> T) throws -> T {
        condition.withLock { recoveries += 1 }
        defer {
            condition.lock()
            recoveries -= 1
            condition.broadcast()
            condition.unlock()
        }
        let reader = try SQLiteConnection(path: path, readOnly: true)
        defer { reader.close() }
        let row = try reader.prepare("SELECT state FROM snapshot_state WHERE id = ?1")
        defer { row.finalize() }
        return try read { (id: Int64) throws(StoreError) -> [UInt8] in
            defer { row.reset() }
            try row.bind(1, id)
            guard try row.step() else {
                throw StoreError.corrupt(path: path, details: "snapshot \(id), named by the journal, is missing")
            }
            return row.bytes(0)
        }
    }

    /// The bytes the store's live pages take, as of its last commit.
    var storedBytes: Int64 { usedBytes.load(ordering: .relaxed) }

    /// Writes what is queued, deletes what was discarded, and stops the thread; returns once it has.
    /// Snapshots submitted later are never written.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
    }

    // MARK: - The store's thread

    private func run() {
        condition.lock()
        while true {
            while (queued.isEmpty && (discards.isEmpty || recoveries > 0)) && !stopping { condition.wait() }
            if queued.isEmpty && (discards.isEmpty || recoveries > 0) { break }
            let batch = queued
            let deleting = recoveries > 0 ? [] : discards
            queued = []
            if recoveries == 0 { discards = [] }
            let hook = hook
            condition.unlock()

            hook?()
            let started = trace == nil ? 0 : SlowTrace.now()
            let outcome = write(batch, deleting: deleting)
            trace?.note(
                "snapshot write", from: started, to: SlowTrace.now(),
                detail: [
                    "snapshots": "\(batch.count)", "bytes": "\(batch.reduce(0) { $0 + $1.state.count })",
                ])
            if case .failure(let error) = outcome {
                logger.warning("Snapshot write failed", metadata: ["error": "\(error)"])
            }
            for (index, snapshot) in batch.enumerated() {
                switch outcome {
                case .success(let ids):
                    metrics.snapshots.increment()
                    metrics.snapshotBytes.increment(by: snapshot.state.count)
                    written(
                        Written(stream: snapshot.stream, upTo: snapshot.upTo, id: ids[index], durable: snapshot.durable)
                    )
                case .failure(let error):
                    snapshot.durable?(.failure(error))
                }
            }

            condition.lock()
            completed += UInt64(batch.count)
            condition.broadcast()
        }
        for statement in [insert, delete, begin, commit, rollback] { statement.finalize() }
        connection.close()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// One transaction: the batch's snapshots inserted (their ids returned in order) and `deleting` deleted.
    private func write(_ batch: [Submitted], deleting: [Int64]) -> Result<[Int64], StoreError> {
        do {
            var ids: [Int64] = []
            try transaction { () throws(StoreError) in
                for snapshot in batch {
                    defer { insert.reset() }
                    try insert.bind(1, snapshot.state)
                    _ = try insert.step()
                    ids.append(insert.int64(0))
                }
                try deleteRows(deleting)
            }
            measure()
            return .success(ids)
        } catch {
            return .failure(error)
        }
    }

    private func transaction(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        try begin.run()
        do {
            try body()
            try commit.run()
        } catch {
            try? rollback.run()
            throw error
        }
    }

    private func deleteRows(_ ids: [Int64]) throws(StoreError) {
        for id in ids {
            try delete.bind(1, id)
            try delete.run()
        }
    }

    private func measure() {
        let pages = (try? connection.integer("PRAGMA page_count")) ?? 0
        let free = (try? connection.integer("PRAGMA freelist_count")) ?? 0
        let size = (try? connection.integer("PRAGMA page_size")) ?? 0
        usedBytes.store((pages - free) * size, ordering: .relaxed)
    }
}
