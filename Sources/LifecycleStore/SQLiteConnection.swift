import CSQLite

/// One SQLite connection. Not thread-safe: each connection is used by one thread at a time.
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?

    /// How long a statement waits for a lock held by another connection before failing with SQLITE_BUSY.
    static let defaultBusyTimeoutMilliseconds: Int32 = 5_000

    init(
        path: String,
        readOnly: Bool,
        busyTimeoutMilliseconds: Int32 = SQLiteConnection.defaultBusyTimeoutMilliseconds
    ) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        // NOMUTEX: each connection stays on one thread, so SQLite's per-connection mutex is pure cost.
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let rc = sqlite3_open_v2(path, &db, access | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw StoreError.io(path: path, operation: "open", message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // Only our own checkpointer competes for locks; a short wait beats failing a whole group commit.
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    deinit {
        close()
    }

    /// Runs one or more statements that return no rows we need.
    func execute(_ sql: String, operation: String) throws(StoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, operation: operation) }
    }

    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, operation: "prepare \(sql)") }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// The first column of the first row of a query, as an integer (0 when there is no row).
    func integer(_ sql: String) throws(StoreError) -> Int64 {
        let statement = try prepare(sql)
        defer { statement.finalize() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// Every row's first column as text.
    func texts(_ sql: String) throws(StoreError) -> [String] {
        let statement = try prepare(sql)
        defer { statement.finalize() }
        var rows: [String] = []
        while try statement.step() { rows.append(statement.text(0)) }
        return rows
    }

    /// Rows the last statement inserted, updated or deleted.
    var changes: Int { Int(sqlite3_changes(handle)) }

    enum CheckpointMode {
        /// Copies what it can without waiting for any lock; writers go on meanwhile.
        case passive
        /// Waits for the writer lock, copies everything, and makes the next write start the log afresh.
        case restart
        /// Like `restart`, and also truncates the log file to zero bytes.
        case truncate
    }

    /// Copies frames of the write-ahead log into the database file.
    /// Returns false when SQLite was busy and nothing was done.
    @discardableResult
    func checkpoint(_ mode: CheckpointMode) throws(StoreError) -> Bool {
        let sqliteMode =
            switch mode {
            case .passive: SQLITE_CHECKPOINT_PASSIVE
            case .restart: SQLITE_CHECKPOINT_RESTART
            case .truncate: SQLITE_CHECKPOINT_TRUNCATE
            }
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, sqliteMode, nil, nil)
        if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { return false }
        guard rc == SQLITE_OK else { throw error(rc, operation: "checkpoint") }
        return true
    }

    func close() {
        guard let db = handle else { return }
        sqlite3_close_v2(db)
        handle = nil
    }

    /// Turns a SQLite result code into the store error a caller can act on.
    func error(_ rc: Int32, operation: String) -> StoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        switch rc & 0xff {
        case SQLITE_NOTADB:
            return .notALifecycledDatabase(path: path, reason: message)
        case SQLITE_CORRUPT:
            return .corrupt(path: path, details: message)
        default:
            return .io(path: path, operation: operation, message: "\(message) (code \(rc))")
        }
    }
}
