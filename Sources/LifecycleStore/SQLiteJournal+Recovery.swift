extension SQLiteJournal {
    /// Calls `each` with every stream `including` accepts, one at a time, sorted by name: its newest snapshot
    /// (if any) and the records after it, in journal order. Only one stream's records are held at a time, so
    /// start-up memory follows the largest stream, not the journal.
    ///
    /// Waits for operations already accepted, then reads on a connection of its own, in one read
    /// transaction, so it sees one committed state. Called from a completion, it sees what is committed at
    /// that moment.
    public func recover(
        including: (String) -> Bool, each: (RecoveredStream) throws -> Void
    ) throws {
        flush()
        guard isOpen else { throw StoreError.closed }
        try snapshots.whileReading { stored in try recover(including: including, each: each, stored: stored) }
    }

    /// `stored` reads a snapshot's bytes from the snapshot store, which deletes none meanwhile.
    private func recover(
        including: (String) -> Bool, each: (RecoveredStream) throws -> Void,
        stored: (Int64) throws(StoreError) -> [UInt8]
    ) throws {
        let connection = try SQLiteConnection(path: databasePath, readOnly: true)
        defer { connection.close() }
        try connection.execute("BEGIN", operation: "begin recovery")
        defer { try? connection.execute("COMMIT", operation: "end recovery") }

        var names: [(id: Int64, name: String)] = []
        let streams = try connection.prepare("SELECT id, name FROM stream")
        defer { streams.finalize() }
        while try streams.step() {
            let name = streams.text(1)
            if including(name) { names.append((streams.int64(0), name)) }
        }
        names.sort { $0.name < $1.name }

        let snapshotRow = try connection.prepare("SELECT seq, state, stored FROM snapshot WHERE stream_id = ?1")
        defer { snapshotRow.finalize() }
        // Records a snapshot covers are normally deleted with it; any left behind are skipped.
        let recordRows = try connection.prepare(
            "SELECT seq, record FROM journal WHERE stream_id = ?1 AND seq > ?2 ORDER BY seq")
        defer { recordRows.finalize() }
        for (id, name) in names {
            try snapshotRow.bind(1, id)
            // Schema 1's snapshots hold their bytes in the row; later ones name them in the snapshot store.
            let snapshot =
                try snapshotRow.step()
                ? StreamSnapshot(
                    seq: snapshotRow.uint64(0),
                    state: snapshotRow.int64(2) == 0 ? snapshotRow.bytes(1) : try stored(snapshotRow.int64(2)))
                : nil
            snapshotRow.reset()
            try recordRows.bind(1, id)
            try recordRows.bind(2, snapshot?.seq ?? 0)
            var records: [JournalRecord] = []
            while try recordRows.step() {
                records.append(JournalRecord(seq: recordRows.uint64(0), bytes: recordRows.bytes(1)))
            }
            recordRows.reset()
            if snapshot == nil && records.isEmpty { continue }
            try each(RecoveredStream(stream: name, snapshot: snapshot, records: records))
        }
    }
}

extension SQLiteJournal {
    /// How many journal rows the file holds, snapshots aside; shows that retention deletes records.
    func storedRecordCount() throws(StoreError) -> Int {
        flush()
        let connection = try SQLiteConnection(path: databasePath, readOnly: true)
        defer { connection.close() }
        return Int(try connection.integer("SELECT count(*) FROM journal"))
    }
}
