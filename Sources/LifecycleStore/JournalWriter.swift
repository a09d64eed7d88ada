import CoreMetrics
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer thread's connection and prepared statements: turns a batch of operations into one transaction.
///
/// Used only by the writer thread once the journal has started it.
final class JournalWriter {
    private let connection: SQLiteConnection
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    private let rollback: SQLiteStatement
    private let insertRecord: SQLiteStatement
    private let insertStream: SQLiteStatement
    private let snapshotRow: SQLiteStatement
    private let upsertSnapshot: SQLiteStatement
    private let pruneStep: SQLiteStatement
    private let deleteStreamRecords: SQLiteStatement
    private let deleteStreamSnapshot: SQLiteStatement
    private let deleteStreamRow: SQLiteStatement
    private let deleteAllRecords: SQLiteStatement
    private let deleteAllSnapshots: SQLiteStatement
    private let deleteAllStreams: SQLiteStatement
    private let setLastSeq: SQLiteStatement
    /// Stream name to row id, mirroring the `stream` table. After a failed transaction the journal stops
    /// writing, so the cache never has to be rolled back.
    private var streamIDs: [String: Int64] = [:]

    /// Snapshots (ids in the snapshot store) no row names any longer, as of the batch being written.
    private var unnamed: [Int64] = []

    /// Streams whose records up to `upTo` a named snapshot stands for and that are not all deleted yet, oldest
    /// first. Recovery skips such records; they are deleted a few at a time in the transactions that follow.
    private var prunes: [(id: Int64, upTo: UInt64)] = []

    /// Bytes of records written since the last `takeBytesWritten()`.
    private var bytesWritten = 0
    private var bytesSinceMeasure = 0
    private var deletedSinceMeasure = false
    private let pageCount: SQLiteStatement
    private let freelistCount: SQLiteStatement
    private let pageSize: SQLiteStatement
    private let metrics = StoreMetrics()

    init(connection: SQLiteConnection) throws(StoreError) {
        self.connection = connection
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        pageCount = try connection.prepare("PRAGMA page_count")
        freelistCount = try connection.prepare("PRAGMA freelist_count")
        pageSize = try connection.prepare("PRAGMA page_size")
        rollback = try connection.prepare("ROLLBACK")
        insertRecord = try connection.prepare("INSERT INTO journal(seq, stream_id, record) VALUES (?1, ?2, ?3)")
        insertStream = try connection.prepare("INSERT INTO stream(name) VALUES (?1) RETURNING id")
        snapshotRow = try connection.prepare("SELECT seq, stored FROM snapshot WHERE stream_id = ?1")
        upsertSnapshot = try connection.prepare(
            """
            INSERT INTO snapshot(stream_id, seq, state, stored) VALUES (?1, ?2, x'', ?3)
            ON CONFLICT(stream_id) DO UPDATE SET seq = excluded.seq, state = excluded.state, stored = excluded.stored
            """
        )
        pruneStep = try connection.prepare(
            """
            DELETE FROM journal WHERE seq IN
            (SELECT seq FROM journal WHERE stream_id = ?1 AND seq <= ?2 ORDER BY seq LIMIT ?3)
            """)
        deleteStreamRecords = try connection.prepare("DELETE FROM journal WHERE stream_id = ?1")
        deleteStreamSnapshot = try connection.prepare("DELETE FROM snapshot WHERE stream_id = ?1 RETURNING stored")
        deleteStreamRow = try connection.prepare("DELETE FROM stream WHERE id = ?1")
        deleteAllRecords = try connection.prepare("DELETE FROM journal")
        deleteAllSnapshots = try connection.prepare("DELETE FROM snapshot RETURNING stored")
        deleteAllStreams = try connection.prepare("DELETE FROM stream")
        setLastSeq = try connection.prepare("UPDATE store_meta SET value = ?1 WHERE key = 'last_seq'")

        let streams = try connection.prepare("SELECT id, name FROM stream")
        defer { streams.finalize() }
        while try streams.step() {
            streamIDs[streams.text(1)] = streams.int64(0)
        }
        // Records a snapshot covers that a stop left behind are deleted as those of a snapshot named now.
        let covered = try connection.prepare(
            """
            SELECT stream_id, seq FROM snapshot AS s
            WHERE EXISTS (SELECT 1 FROM journal WHERE stream_id = s.stream_id AND seq <= s.seq)
            """)
        defer { covered.finalize() }
        while try covered.step() { prunes.append((covered.int64(0), covered.uint64(1))) }
    }

    /// How many covered records a transaction deletes at most: a few beyond the records it appends, so the
    /// deletions keep up with the appends. A device's records lie among every other device's, each on a page
    /// of its own, so deleting all that a snapshot covers at once (thousands) wrote as many pages in one
    /// commit, which every device's appends in that group waited for.
    static func pruneBudget(appends: Int) -> Int { 32 + appends }

    /// The highest sequence number ever handed out, also for records since deleted.
    func lastSeq() throws(StoreError) -> UInt64 {
        UInt64(bitPattern: try connection.integer("SELECT value FROM store_meta WHERE key = 'last_seq'"))
    }

    var streamCount: Int { streamIDs.count }

    /// The snapshots the journal names, by their id in the snapshot store.
    func namedSnapshots() throws(StoreError) -> Set<Int64> {
        let rows = try connection.prepare("SELECT stored FROM snapshot WHERE stored != 0")
        defer { rows.finalize() }
        var named: Set<Int64> = []
        while try rows.step() { named.insert(rows.int64(0)) }
        return named
    }

    /// The snapshots the last committed batch stopped naming (replaced, or their stream gone), or named
    /// never (too old, or their stream gone): the snapshot store may delete them.
    func takeUnnamed() -> [Int64] {
        defer { unnamed = [] }
        return unnamed
    }

    /// Writes the batch in one transaction and commits it; on any error rolls it all back.
    func write(_ batch: [PendingOperation]) -> StoreError? {
        let start = ContinuousClock.now
        // A rolled-back snapshot's records are not covered: what is left to delete is as it was.
        let prunesBefore = prunes
        do {
            try begin.run()
            var lastAppended: UInt64?
            var appends = 0
            for operation in batch {
                if let seq = try apply(operation) {
                    lastAppended = seq
                    appends += 1
                }
            }
            if let lastAppended {
                try setLastSeq.bind(1, lastAppended)
                try setLastSeq.run()
            }
            _ = try prune(upTo: Self.pruneBudget(appends: appends))
            try commit.run()
            let elapsed = (ContinuousClock.now - start).components
            metrics.commitDuration.recordNanoseconds(
                elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
            metrics.commitOperations.record(batch.count)
            return nil
        } catch {
            try? rollback.run()
            unnamed = []
            prunes = prunesBefore
            return error
        }
    }

    /// The store's use of its disk now: its live pages (the database as the log makes it, less the free
    /// list: what deletions free is counted free at once), and what the file system has left. The log itself
    /// adds at most `SQLiteJournal.logHardLimit`. Three prepared pragmas and a statvfs.
    func diskUse() -> DiskUse {
        func value(_ statement: SQLiteStatement) -> Int64 {
            defer { statement.reset() }
            return (try? statement.step()) == true ? statement.int64(0) : 0
        }
        let pages = value(pageCount)
        let free = value(freelistCount)
        let pageSize = value(self.pageSize)
        var fileSystem = statvfs()
        let available =
            statvfs(connection.path, &fileSystem) == 0
            ? Int64(fileSystem.f_bavail) * Int64(fileSystem.f_frsize) : Int64.max
        return DiskUse(usedBytes: (pages - free) * pageSize, freeBytes: available)
    }

    /// Whether the disk use is worth measuring again: after 256 KiB written since the last measure, or a
    /// deletion (which frees room). So a commit of a small record measures nothing.
    func diskUseChanged() -> Bool {
        guard bytesSinceMeasure >= 256 << 10 || deletedSinceMeasure else { return false }
        bytesSinceMeasure = 0
        deletedSinceMeasure = false
        return true
    }

    /// Bounds the log when passive checkpoints cannot keep up: SQLite only starts the log afresh after a
    /// checkpoint that copied every frame, which a steady stream of commits can prevent forever. Past
    /// `limit` bytes the writer itself checkpoints and restarts the log, holding appends for that time.
    /// Returns true when it did.
    func restartLogIfLargerThan(_ limit: Int64) throws(StoreError) -> Bool {
        var status = stat()
        guard stat(connection.path + "-wal", &status) == 0 else { return false }
        metrics.logBytes.record(Int64(status.st_size))
        guard Int64(status.st_size) > limit else { return false }
        return try connection.checkpoint(.restart)
    }

    /// How many bytes were written since the last call; tells the checkpointer when the log has grown.
    func takeBytesWritten() -> Int {
        defer { bytesWritten = 0 }
        return bytesWritten
    }

    /// Returns the sequence number of an appended record.
    private func apply(_ operation: PendingOperation) throws(StoreError) -> UInt64? {
        switch operation {
        case .append(let seq, let stream, let record, let startsStream, _):
            // A stream's first record starts it afresh: nothing of an earlier stream of that name remains.
            if startsStream, let id = streamIDs[stream] {
                try deleteStreamRecords.bind(1, id)
                try deleteStreamRecords.run()
                try deleteStreamSnapshot.bind(1, id)
                try collectUnnamed(deleteStreamSnapshot)
            }
            try insertRecord.bind(1, seq)
            try insertRecord.bind(2, try streamID(stream))
            try insertRecord.bind(3, record)
            try insertRecord.run()
            bytesWritten += record.count
            bytesSinceMeasure += record.count
            metrics.recordBytes.increment(by: record.count)
            return seq
        case .nameSnapshot(let stream, let upTo, let stored, _):
            // A snapshot never creates a stream: one that is gone stays gone.
            guard let id = streamIDs[stream] else {
                unnamed.append(stored)
                return nil
            }
            try snapshotRow.bind(1, id)
            let current = try snapshotRow.step() ? (seq: snapshotRow.uint64(0), stored: snapshotRow.int64(1)) : nil
            snapshotRow.reset()
            // An older snapshot than the one named is not named.
            if let current, current.seq > upTo {
                unnamed.append(stored)
                return nil
            }
            if let current, current.stored != 0 { unnamed.append(current.stored) }
            try upsertSnapshot.bind(1, id)
            try upsertSnapshot.bind(2, upTo)
            try upsertSnapshot.bind(3, stored)
            try upsertSnapshot.run()
            // Retention: the snapshot stands for these records, so disk use stays bounded by live state. They
            // go a few at a time, in this transaction and the next ones (`prune`).
            if let index = prunes.firstIndex(where: { $0.id == id }) {
                prunes[index].upTo = max(prunes[index].upTo, upTo)
            } else {
                prunes.append((id, upTo))
            }
            return nil
        case .deleteStream(let stream, _):
            guard let id = streamIDs[stream] else { return nil }
            deletedSinceMeasure = true
            for statement in [deleteStreamRecords, deleteStreamRow] {
                try statement.bind(1, id)
                try statement.run()
            }
            prunes.removeAll { $0.id == id }
            try deleteStreamSnapshot.bind(1, id)
            try collectUnnamed(deleteStreamSnapshot)
            streamIDs[stream] = nil
            return nil
        case .deleteAll:
            deletedSinceMeasure = true
            try deleteAllRecords.run()
            try collectUnnamed(deleteAllSnapshots)
            try deleteAllStreams.run()
            prunes.removeAll()
            streamIDs.removeAll()
            return nil
        }
    }

    /// Deletes at most `limit` records that named snapshots cover, the oldest snapshot's first; returns how many.
    /// `limit` nil deletes them all.
    private func prune(upTo limit: Int?) throws(StoreError) -> Int {
        var deleted = 0
        while let first = prunes.first, limit.map({ deleted < $0 }) ?? true {
            let step = limit.map { $0 - deleted } ?? Int(Int32.max)
            defer { pruneStep.reset() }
            try pruneStep.bind(1, first.id)
            try pruneStep.bind(2, first.upTo)
            try pruneStep.bind(3, Int64(step))
            try pruneStep.run()
            let changed = connection.changes
            deleted += changed
            // Fewer than asked: nothing of that stream is left to delete.
            if changed < step { prunes.removeFirst() }
        }
        if deleted > 0 { deletedSinceMeasure = true }
        return deleted
    }

    /// Runs a deletion of snapshot rows that returns their `stored` ids, keeping those to delete.
    private func collectUnnamed(_ statement: SQLiteStatement) throws(StoreError) {
        defer { statement.reset() }
        while try statement.step() {
            let stored = statement.int64(0)
            if stored != 0 { unnamed.append(stored) }
        }
    }

    private func streamID(_ stream: String) throws(StoreError) -> Int64 {
        if let id = streamIDs[stream] { return id }
        try insertStream.bind(1, stream)
        defer { insertStream.reset() }
        _ = try insertStream.step()
        let id = insertStream.int64(0)
        streamIDs[stream] = id
        return id
    }

    /// Leaves a compact database behind: the covered records deleted, everything checkpointed and the log
    /// truncated.
    func close() {
        if !prunes.isEmpty {
            do {
                try begin.run()
                _ = try prune(upTo: nil)
                try commit.run()
            } catch {
                // They stay covered, and are deleted when the store is next opened.
                try? rollback.run()
            }
        }
        _ = try? connection.checkpoint(.truncate)
        for statement in [
            begin, commit, rollback, insertRecord, insertStream, snapshotRow, upsertSnapshot, pruneStep,
            deleteStreamRecords,
            deleteStreamSnapshot, deleteStreamRow, deleteAllRecords, deleteAllSnapshots, deleteAllStreams, setLastSeq,
            pageCount, freelistCount, pageSize,
        ] {
            statement.finalize()
        }
        connection.close()
    }
}
