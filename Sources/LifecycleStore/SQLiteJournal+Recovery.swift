extension SQLiteJournal {
    /// For each stream, its newest snapshot (if any) and the records after it, in journal order.
    ///
    /// Waits for operations already accepted, then reads on a connection of its own, in one read
    /// transaction, so it sees one committed state. Streams come sorted by name. Called from a completion,
    /// it sees what is committed at that moment.
    public func recover() throws(StoreError) -> [RecoveredStream] {
        flush()
        guard isOpen else { throw StoreError.closed }
        let connection = try SQLiteConnection(path: databasePath, readOnly: true)
        defer { connection.close() }
        try connection.execute("BEGIN", operation: "begin recovery")
        defer { try? connection.execute("COMMIT", operation: "end recovery") }

        var names: [Int64: String] = [:]
        let streams = try connection.prepare("SELECT id, name FROM stream")
        defer { streams.finalize() }
        while try streams.step() { names[streams.int64(0)] = streams.text(1) }

        var snapshots: [Int64: StreamSnapshot] = [:]
        let snapshotRows = try connection.prepare("SELECT stream_id, seq, state FROM snapshot")
        defer { snapshotRows.finalize() }
        while try snapshotRows.step() {
            snapshots[snapshotRows.int64(0)] = StreamSnapshot(seq: snapshotRows.uint64(1), state: snapshotRows.bytes(2))
        }

        var records: [Int64: [JournalRecord]] = [:]
        let recordRows = try connection.prepare("SELECT seq, stream_id, record FROM journal ORDER BY seq")
        defer { recordRows.finalize() }
        while try recordRows.step() {
            let streamID = recordRows.int64(1)
            let seq = recordRows.uint64(0)
            // Records a snapshot covers are normally deleted with it; skip any left behind.
            if let snapshot = snapshots[streamID], seq <= snapshot.seq { continue }
            records[streamID, default: []].append(JournalRecord(seq: seq, bytes: recordRows.bytes(2)))
        }

        var recovered: [RecoveredStream] = []
        for (id, name) in names where snapshots[id] != nil || records[id] != nil {
            recovered.append(RecoveredStream(stream: name, snapshot: snapshots[id], records: records[id] ?? []))
        }
        return recovered.sorted { $0.stream < $1.stream }
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
