import Foundation

/// The database layout, and the checks that decide whether a file may be opened as our store.
enum StoreSchema {
    /// `PRAGMA application_id` of a lifecycled database: "LCYD".
    static let applicationID: Int64 = 0x4C43_5944
    /// `PRAGMA user_version` this build writes and understands: one per step.
    static var version: Int64 { Int64(steps.count) }
    /// The journal's schema, step by step (see `open`).
    static let steps = [createVersion1, upgradeTo2]

    /// Tables of version 1. Sequence numbers are the journal's rowid, so replay reads the table in order.
    /// Streams get a small integer id, so the journal does not repeat the device id on every row.
    static let createVersion1 = """
        BEGIN IMMEDIATE;
        CREATE TABLE store_meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO store_meta(key, value) VALUES ('last_seq', 0);
        CREATE TABLE stream(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE journal(seq INTEGER PRIMARY KEY, stream_id INTEGER NOT NULL, record BLOB NOT NULL);
        CREATE INDEX journal_by_stream ON journal(stream_id, seq);
        CREATE TABLE snapshot(stream_id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, state BLOB NOT NULL);
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = 1;
        COMMIT;
        """

    /// Version 2: a snapshot's bytes live in the snapshot store (`SnapshotStore`), and its row names them by
    /// `stored`, the id there, its `state` empty. A row of version 1 keeps its bytes in `state`, `stored` 0.
    static let upgradeTo2 = """
        BEGIN IMMEDIATE;
        ALTER TABLE snapshot ADD COLUMN stored INTEGER NOT NULL DEFAULT 0;
        PRAGMA user_version = 2;
        COMMIT;
        """

    /// The journal's page size in a new file, in bytes (SQLite's default is 4,096). A group's appends land
    /// on a page of the `journal_by_stream` index per device in it, and a snapshot's covered records are
    /// deleted from a page each (a device's records lie among every other device's): each such page is
    /// written whole to the log at the commit and again by the checkpoint. With pages of 1 KiB rather than 4 the
    /// daemon wrote half the bytes per journaled event (`bench/writes`, BENCHMARKS.md); a record of up to 989
    /// bytes still fits on its page. A file keeps the page size it was created with.
    static let journalPageSize = 1024

    /// Opens the journal's database for writing: created when the file is new or empty (with pages of
    /// `journalPageSize`), brought up to `version` when older.
    static func openForWriting(path: String, busyTimeoutMilliseconds: Int32) throws(StoreError) -> SQLiteConnection {
        try open(
            path: path, steps: steps, busyTimeoutMilliseconds: busyTimeoutMilliseconds, newPageSize: journalPageSize)
    }

    /// Opens one of the store's databases for writing. `steps[0]` creates version 1 in an empty file, and
    /// each later step makes version n + 1 of version n, setting `user_version` in the same transaction.
    ///
    /// Refuses, rather than starting empty, anything that is not a lifecycled database, is damaged, or
    /// has a newer schema. The caller must hold the directory lock. `newPageSize`: the page size a new file
    /// takes (nil: SQLite's default).
    static func open(
        path: String, steps: [String], busyTimeoutMilliseconds: Int32, newPageSize: Int? = nil
    ) throws(StoreError) -> SQLiteConnection {
        try checkHeader(path: path)
        let connection = try SQLiteConnection(
            path: path,
            readOnly: false,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds
        )
        let applicationID = try connection.integer("PRAGMA application_id")
        let version = try connection.integer("PRAGMA user_version")
        let objects = try connection.integer("SELECT count(*) FROM sqlite_schema")
        let isNew = applicationID == 0 && version == 0 && objects == 0
        let supported = Int64(steps.count)
        if !isNew {
            guard applicationID == Self.applicationID else {
                throw StoreError.notALifecycledDatabase(
                    path: path,
                    reason: "application_id is \(applicationID), expected \(Self.applicationID)"
                )
            }
            guard version <= supported else {
                throw StoreError.schemaVersionTooNew(path: path, found: version, supported: supported)
            }
            guard version >= 1 else {
                throw StoreError.corrupt(path: path, details: "schema version \(version) was never completed")
            }
            let problems = try connection.texts("PRAGMA quick_check")
            guard problems == ["ok"] else {
                throw StoreError.corrupt(path: path, details: problems.prefix(3).joined(separator: "; "))
            }
        }
        // Only a file with nothing in it yet takes a page size (before WAL mode, which fixes it).
        if isNew, let newPageSize {
            try connection.execute("PRAGMA page_size = \(newPageSize)", operation: "set the page size")
        }
        try configure(connection)
        for step in steps.dropFirst(Int(isNew ? 0 : version)) {
            try connection.execute(step, operation: "create or upgrade schema")
        }
        return connection
    }

    /// Settings for the writer: WAL with a full sync of the log at every commit.
    ///
    /// synchronous=FULL rather than NORMAL: in WAL mode NORMAL survives a crash of the process but may
    /// lose the last commits on power loss or a kernel crash, and `durable` promises more than that.
    /// Group commit pays for the one fsync per transaction. Automatic checkpoints are off because they
    /// would run inside a commit on the writer thread; the `Checkpointer` does them on its own connection.
    private static func configure(_ connection: SQLiteConnection) throws(StoreError) {
        let mode = try connection.texts("PRAGMA journal_mode = WAL")
        guard mode == ["wal"] else {
            throw StoreError.io(
                path: connection.path,
                operation: "enable WAL",
                message: "journal_mode is \(mode.first ?? "unknown")"
            )
        }
        try connection.execute(
            """
            PRAGMA synchronous = FULL;
            PRAGMA fullfsync = ON;
            PRAGMA checkpoint_fullfsync = ON;
            PRAGMA wal_autocheckpoint = 0;
            PRAGMA journal_size_limit = 67108864;
            PRAGMA foreign_keys = OFF;
            """,
            operation: "configure"
        )
    }

    /// A non-empty file must start with SQLite's magic string. SQLite would refuse it too, but only at
    /// the first read; checking first makes "not a database" impossible to mistake for "new and empty".
    private static func checkHeader(path: String) throws(StoreError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let header: Data
        do {
            header = try handle.read(upToCount: 16) ?? Data()
        } catch {
            throw StoreError.io(path: path, operation: "read header", message: "\(error)")
        }
        guard !header.isEmpty else { return }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreError.notALifecycledDatabase(path: path, reason: "no SQLite header")
        }
    }
}
