import CSQLite

/// A prepared statement, reused for every execution; bindings are cleared by `reset()`.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection
    private var finalized = false

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        finalize()
    }

    func bind(_ index: Int32, _ value: Int64) throws(StoreError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ index: Int32, _ value: UInt64) throws(StoreError) {
        try bind(index, Int64(bitPattern: value))
    }

    func bind(_ index: Int32, _ value: String) throws(StoreError) {
        try check(sqlite3_bind_text(handle, index, value, -1, sqliteTransient))
    }

    func bind(_ index: Int32, _ bytes: [UInt8]) throws(StoreError) {
        // An empty buffer may have no base address, and binding a null pointer stores NULL, not an empty blob.
        let rc =
            bytes.isEmpty
            ? sqlite3_bind_zeroblob(handle, index, 0)
            : bytes.withUnsafeBytes {
                sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient)
            }
        try check(rc)
    }

    /// Advances to the next row; returns false when the statement is done.
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, operation: "step \(sql)")
        }
    }

    /// Executes a statement that returns no rows, then makes it ready for the next use.
    func run() throws(StoreError) {
        defer { reset() }
        _ = try step()
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func uint64(_ column: Int32) -> UInt64 {
        UInt64(bitPattern: sqlite3_column_int64(handle, column))
    }

    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    func bytes(_ column: Int32) -> [UInt8] {
        // column_blob before column_bytes, as SQLite documents, so the length matches the pointer.
        guard let blob = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    func finalize() {
        guard !finalized else { return }
        finalized = true
        sqlite3_finalize(handle)
    }

    private var sql: String {
        sqlite3_sql(handle).map { String(cString: $0) } ?? "statement"
    }

    private func check(_ rc: Int32) throws(StoreError) {
        guard rc == SQLITE_OK else { throw connection.error(rc, operation: "bind \(sql)") }
    }
}

/// Tells SQLite to copy bound bytes, so the Swift buffer may go away before the statement runs.
private var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
}
