import Foundation
public import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The durable journal: a SQLite database in WAL mode, written by one thread with group commit.
///
/// Appends only queue the record and return. One writer thread takes everything queued, writes it in a
/// single transaction, commits (one fsync of the log), and hands the group to `CompletionDelivery`, whose
/// thread calls each completion in the order the operations were accepted while the writer goes on to the
/// next group. After a write fails the journal fails every later operation with the same
/// error until it is reopened: records after a lost one must never become durable. The queue is not
/// bounded; a caller that outruns the disk grows memory, never blocks.
public final class SQLiteJournal: Journal, @unchecked Sendable {
    /// The database file's name inside the data directory.
    public static let databaseFileName = "lifecycled.sqlite3"
    /// Every database file of a data directory: the journal's and its snapshots' (`SnapshotStore`).
    public static let databaseFileNames = [databaseFileName, SnapshotStore.fileName]
    /// The lock file's name inside the data directory.
    public static let lockFileName = "lifecycled.lock"

    /// The database file this journal writes.
    public let databasePath: String
    private let logger: Logger
    private let trace: SlowTrace?
    /// Where snapshots' bytes are written before the journal names them.
    let snapshots: SnapshotStore
    /// Runs the completions of committed groups off the writer thread.
    let delivery: CompletionDelivery

    // Everything below is guarded by `state`. The writer thread alone uses the writer, the checkpointer
    // and the lock once started, and releases them when it exits.
    private let state = NSCondition()
    private var pending: [PendingOperation] = []
    private var nextSeq: UInt64
    private var accepted: UInt64 = 0
    private var completed: UInt64 = 0
    private var commits: UInt64 = 0
    private var failure: StoreError?
    private var deletions = StreamDeletions()
    private var closing = false
    private var finished = false
    /// `diskUse`, written by the writer after each commit, read by any thread.
    private let usedBytes = Atomic<Int64>(0)
    private let freeBytes = Atomic<Int64>(Int64.max)

    /// Opens (or creates) the store in `directory` and starts its writer thread.
    ///
    /// Creates the directory if missing and takes its lock file. Refuses, with a `StoreError` that says
    /// why, a file that is not a lifecycled database, is corrupt, has a newer schema, or a directory
    /// another process holds; it never starts empty in place of a store it could not read.
    /// `trace`, when set, logs each commit, checkpoint and snapshot write that takes its threshold or longer.
    public convenience init(directory: String, logger: Logger, trace: SlowTrace? = nil) throws(StoreError) {
        try self.init(
            directory: directory,
            logger: logger,
            busyTimeoutMilliseconds: SQLiteConnection.defaultBusyTimeoutMilliseconds,
            trace: trace
        )
    }

    /// A store that cannot grow past `pageLimit` pages (SQLite's `max_page_count`): a full disk, for tests.
    package convenience init(directory: String, logger: Logger, pageLimit: Int) throws(StoreError) {
        try self.init(
            directory: directory, logger: logger,
            busyTimeoutMilliseconds: SQLiteConnection.defaultBusyTimeoutMilliseconds, pageLimit: pageLimit)
    }

    /// Opens the store with a chosen busy timeout for the writer; tests make it short to provoke write failures.
    /// `pageLimit` caps the database at that many pages (SQLite's `max_page_count`): tests fill it to act
    /// out a full disk.
    init(
        directory: String, logger: Logger, busyTimeoutMilliseconds: Int32, pageLimit: Int? = nil,
        trace: SlowTrace? = nil
    ) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotCreateDirectory(path: directory, reason: Self.reason(error))
        }
        let directoryURL = URL(fileURLWithPath: directory)
        databasePath = directoryURL.appendingPathComponent(Self.databaseFileName).path
        self.logger = logger
        self.trace = trace

        let lock = try DirectoryLock(path: directoryURL.appendingPathComponent(Self.lockFileName).path)
        let connection = try StoreSchema.openForWriting(
            path: databasePath,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds
        )
        if let pageLimit {
            _ = try connection.integer("PRAGMA max_page_count = \(pageLimit)")
        }
        let writer = try JournalWriter(connection: connection)
        snapshots = try SnapshotStore(
            path: directoryURL.appendingPathComponent(SnapshotStore.fileName).path,
            named: try writer.namedSnapshots(), logger: logger, trace: trace)
        nextSeq = try writer.lastSeq() + 1
        let use = writer.diskUse()
        usedBytes.store(use.usedBytes, ordering: .relaxed)
        freeBytes.store(use.freeBytes, ordering: .relaxed)
        let checkpointer = try Checkpointer(
            path: databasePath,
            interval: 1,
            thresholdBytes: 4 << 20,
            logger: logger,
            trace: trace
        )
        logger.info(
            "Opened journal",
            metadata: [
                "path": "\(databasePath)", "next_seq": .stringConvertible(nextSeq),
                "streams": .stringConvertible(writer.streamCount),
            ]
        )
        delivery = CompletionDelivery(trace: trace)
        snapshots.start { [weak self] written in self?.name(written) }
        delivery.start { [weak self] count in self?.delivered(count) }
        let owned = WriterResources(writer: writer, checkpointer: checkpointer, lock: lock)
        let thread = Thread { [self] in
            SlowTrace.nameThisThread("lcd.writer")
            runWriter(owned.writer, checkpointer: owned.checkpointer, lock: owned.lock)
        }
        thread.name = "lifecycled.store.writer"
        thread.start()
    }

    /// Transactions committed since the journal was opened; many appends share one when they queue up together.
    public var commitCount: UInt64 {
        state.withLock { commits }
    }

    /// False once `close()` was called.
    var isOpen: Bool {
        state.withLock { !closing }
    }

    public func append(
        stream: String,
        record: [UInt8],
        startsStream: Bool,
        durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        state.lock()
        var refusal = refusal()
        if refusal == nil, !startsStream, deletions.isDeleted(stream) { refusal = .streamDeleted(stream: stream) }
        if let refusal {
            state.unlock()
            durable(.failure(refusal))
            return
        }
        let seq = nextSeq
        nextSeq += 1
        if startsStream { deletions.start(stream, at: seq) }
        enqueue(.append(seq: seq, stream: stream, record: record, startsStream: startsStream, durable: durable))
        state.unlock()
    }

    /// Writes the snapshot to the snapshot store, off the appends' path; once it is durable there, the
    /// journal names it and drops the stream's records up to `journalSeq`, ordered with appends then.
    ///
    /// An older snapshot than the one named is ignored. A snapshot that claims a sequence number not
    /// yet appended fails with `StoreError.snapshotAheadOfJournal`. The stream's deletions are checked when
    /// the snapshot is accepted and again when it is named.
    public func saveSnapshot(
        stream: String, upTo journalSeq: UInt64, state snapshot: [UInt8], durable: DurableCompletion?
    ) {
        state.lock()
        var refusal = refusal()
        if refusal == nil, journalSeq >= nextSeq {
            refusal = .snapshotAheadOfJournal(stream: stream, upTo: journalSeq, lastAppended: nextSeq - 1)
        }
        if refusal == nil, deletions.refusesSnapshot(of: stream, upTo: journalSeq) {
            refusal = .streamDeleted(stream: stream)
        }
        state.unlock()
        if let refusal {
            durable?(.failure(refusal))
            return
        }
        snapshots.submit(stream: stream, upTo: journalSeq, state: snapshot, durable: durable)
    }

    /// Names a snapshot the snapshot store committed, in order with the appends accepted until now; one
    /// whose stream was deleted or started again meanwhile is not named, and the store deletes it.
    private func name(_ snapshot: SnapshotStore.Written) {
        state.lock()
        var refusal = refusal()
        if refusal == nil, deletions.refusesSnapshot(of: snapshot.stream, upTo: snapshot.upTo) {
            refusal = .streamDeleted(stream: snapshot.stream)
        }
        if let refusal {
            state.unlock()
            snapshots.discard([snapshot.id])
            snapshot.durable?(.failure(refusal))
            return
        }
        enqueue(
            .nameSnapshot(stream: snapshot.stream, upTo: snapshot.upTo, stored: snapshot.id, durable: snapshot.durable))
        state.unlock()
    }

    /// Drops the stream's snapshot and records, ordered with appends.
    public func deleteStream(_ stream: String, durable: DurableCompletion?) {
        enqueueOrRefuse(.deleteStream(stream, durable: durable)) { deletions, _ in deletions.delete(stream) }
    }

    /// Drops every stream, ordered with appends. Sequence numbers keep increasing from where they were.
    public func deleteAll(durable: DurableCompletion?) {
        enqueueOrRefuse(.deleteAll(durable: durable)) { $0.deleteAll(nextSeq: $1) }
    }

    /// Blocks until every operation accepted before the call has committed or failed, and its completion ran.
    ///
    /// From a completion it returns at once: waiting there would wait for itself.
    public func flush() {
        guard !delivery.isCurrentThread else { return }
        snapshots.flush()
        state.lock()
        defer { state.unlock() }
        let target = accepted
        while completed < target && !finished { state.wait() }
    }

    public var keepsRecords: Bool { true }

    public var diskUse: DiskUse? {
        DiskUse(
            usedBytes: usedBytes.load(ordering: .relaxed) + snapshots.storedBytes,
            freeBytes: freeBytes.load(ordering: .relaxed))
    }

    /// Finishes every accepted operation, checkpoints, and releases the database and the directory lock.
    ///
    /// Later operations fail with `StoreError.closed`. Called from a completion it returns before the
    /// writer has finished, which waits for that completion.
    public func close() {
        let fromCompletion = delivery.isCurrentThread
        // Snapshots already accepted are written and named first, as appends accepted are.
        if !fromCompletion { snapshots.flush() }
        state.lock()
        defer { state.unlock() }
        closing = true
        state.broadcast()
        guard !fromCompletion else { return }
        while !finished { state.wait() }
    }

    /// Counts a delivered group's operations as completed (on the delivery thread).
    private func delivered(_ count: Int) {
        state.lock()
        completed += UInt64(count)
        state.broadcast()
        state.unlock()
    }

    // MARK: - Writer thread

    private func runWriter(_ writer: JournalWriter, checkpointer: Checkpointer, lock: DirectoryLock) {
        state.lock()
        while true {
            while pending.isEmpty && !closing { state.wait() }
            if pending.isEmpty { break }
            // With two groups' completions still outstanding, the writer waits for one, then takes
            // everything queued meanwhile: one larger group rather than several whose answers would wait anyway.
            state.unlock()
            let held = delivery.waitForRoom()
            state.lock()
            let batch = pending
            pending = []
            let earlierFailure = failure
            state.unlock()

            let started = trace == nil ? 0 : SlowTrace.now()
            let outcome = earlierFailure ?? writer.write(batch)
            let written = trace == nil ? 0 : SlowTrace.now()

            state.lock()
            if outcome == nil {
                commits += 1
            } else if failure == nil {
                failure = outcome
                logger.error("Journal write failed; refusing further writes", metadata: ["error": "\(outcome!)"])
            }
            let idle = pending.isEmpty
            state.unlock()

            // The disk use its completions see is the commit's (a deletion's answer frees room for the next
            // change); measured only after a deletion or 256 KiB written.
            if outcome == nil, writer.diskUseChanged() {
                let use = writer.diskUse()
                usedBytes.store(use.usedBytes, ordering: .relaxed)
                freeBytes.store(use.freeBytes, ordering: .relaxed)
            }
            // The completions run on the delivery thread, in order, while this thread goes on: what follows
            // holds no answer of this group, and the next group's write starts as soon as it is done.
            delivery.deliver(batch, failure: outcome)
            if outcome == nil {
                snapshots.discard(writer.takeUnnamed())
                checkpointer.noteCommitted(bytes: writer.takeBytesWritten())
                restartLogIfTooLarge(writer, idle: idle)
            }
            if let trace {
                let done = SlowTrace.now()
                trace.note(
                    "commit", from: started - held, to: done,
                    phases: ["held": held, "write": written - started, "after": done - written],
                    detail: ["operations": "\(batch.count)"])
            }

            state.lock()
        }
        state.unlock()

        delivery.stop()
        checkpointer.stop()
        snapshots.stop()
        writer.close()
        lock.release()
        logger.info("Closed journal", metadata: ["path": "\(databasePath)"])

        state.lock()
        finished = true
        state.broadcast()
        state.unlock()
    }

    /// The write-ahead log may grow to this size before the writer restarts it itself, when no append waits.
    static let logSizeLimit: Int64 = 64 << 20
    /// The size past which the writer restarts the log even while appends wait: the disk's bound.
    static let logHardLimit: Int64 = 4 * logSizeLimit

    /// A restart holds the appends queued meanwhile (it waits for the checkpointer and copies what is left
    /// of the log), so the writer restarts the log only when nothing is queued, or past `logHardLimit`.
    private func restartLogIfTooLarge(_ writer: JournalWriter, idle: Bool) {
        let start = ContinuousClock.now
        do {
            let started = trace == nil ? 0 : SlowTrace.now()
            if try writer.restartLogIfLargerThan(idle ? Self.logSizeLimit : Self.logHardLimit) {
                trace?.note("log restart", from: started, to: SlowTrace.now())
                logger.info(
                    "Restarted WAL from the writer",
                    metadata: ["duration": "\(ContinuousClock.now - start)", "path": "\(databasePath)"]
                )
            }
        } catch {
            // The commit itself succeeded; a failed checkpoint only leaves the log longer.
            logger.warning("WAL restart failed", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - Queueing (callers hold `state`)

    private func refusal() -> StoreError? {
        closing ? .closed : failure
    }

    private func enqueue(_ operation: PendingOperation) {
        pending.append(operation)
        accepted += 1
        // Broadcast, not signal: flush and close wait on the same condition and must not swallow the wake-up.
        if pending.count == 1 { state.broadcast() }
    }

    /// `noting` records the operation in `deletions`, with the sequence number the next append will get.
    private func enqueueOrRefuse(_ operation: PendingOperation, noting: (inout StreamDeletions, UInt64) -> Void) {
        state.lock()
        if let refusal = refusal() {
            state.unlock()
            operation.complete(failure: refusal)
            return
        }
        noting(&deletions, nextSeq)
        enqueue(operation)
        state.unlock()
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}

/// What the writer thread owns. Handed over once when the thread starts; no other thread touches it after.
private struct WriterResources: @unchecked Sendable {
    let writer: JournalWriter
    let checkpointer: Checkpointer
    let lock: DirectoryLock
}
