/// One journal record as read back at recovery.
public struct JournalRecord: Sendable, Equatable {
    /// The sequence number the journal gave the record when it was appended.
    public let seq: UInt64
    /// The bytes exactly as appended.
    public let bytes: [UInt8]

    public init(seq: UInt64, bytes: [UInt8]) {
        self.seq = seq
        self.bytes = bytes
    }
}

/// A stream's saved state, covering every record of the stream up to `seq`.
public struct StreamSnapshot: Sendable, Equatable {
    /// The last journal sequence number the state reflects.
    public let seq: UInt64
    /// The bytes exactly as saved.
    public let state: [UInt8]

    public init(seq: UInt64, state: [UInt8]) {
        self.seq = seq
        self.state = state
    }
}

/// What recovery found for one stream: start from `snapshot` (if any), then replay `records` in order.
public struct RecoveredStream: Sendable, Equatable {
    public let stream: String
    /// The newest snapshot, or nil when the stream has never been snapshotted.
    public let snapshot: StreamSnapshot?
    /// The records after the snapshot, in journal order (strictly increasing `seq`).
    public let records: [JournalRecord]

    public init(stream: String, snapshot: StreamSnapshot?, records: [JournalRecord]) {
        self.stream = stream
        self.snapshot = snapshot
        self.records = records
    }
}
