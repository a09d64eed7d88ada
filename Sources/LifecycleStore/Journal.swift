/// Completion for an operation that produces no value: called once it is durable, or with the error that
/// prevented it.
public typealias DurableCompletion = @Sendable (Result<Void, StoreError>) -> Void

/// An append-only, durable log of opaque records, grouped in named streams (one per device).
///
/// Every operation is ordered after every operation accepted before it; each completion is called after
/// its operation and all earlier ones are durable, in the order the operations were accepted. Completions may
/// run on a store thread and must return quickly: later operations' completions wait for them (the writes
/// do not). The journal never interprets record bytes.
public protocol Journal: Sendable {
    /// Appends a record; calls `durable` once it (and every record appended before it) is durable,
    /// with the record's journal sequence number, or with an error. `durable` runs on a store thread.
    ///
    /// `startsStream`: the record is the stream's first; whatever the stream held before is dropped with
    /// it. Without it, an append to a stream deleted in this process (and not started since) fails with
    /// `StoreError.streamDeleted` and changes nothing; an append to a stream never seen creates it.
    ///
    /// Sequence numbers are global, strictly increasing, and never reused, also across restarts; they
    /// are not guaranteed to be contiguous.
    func append(
        stream: String, record: [UInt8], startsStream: Bool,
        durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void)

    /// Replaces the stream's snapshot with `state`, which must reflect every record of the stream up to
    /// and including sequence number `upTo`. Records of the stream up to `upTo` may then be discarded.
    /// A snapshot of a stream deleted in this process, or older than the record that last started it,
    /// fails with `StoreError.streamDeleted` and changes nothing.
    func saveSnapshot(stream: String, upTo journalSeq: UInt64, state: [UInt8], durable: DurableCompletion?)

    /// Drops the stream's snapshot and records.
    func deleteStream(_ stream: String, durable: DurableCompletion?)

    /// Drops every stream. Sequence numbers keep increasing from where they were.
    func deleteAll(durable: DurableCompletion?)

    /// Blocks until everything accepted so far is durable or has failed (used at shutdown).
    func flush()

    /// Calls `each` with every stream `including` accepts, one at a time, sorted by name: its newest
    /// snapshot (if any) and the records after it, in journal order. An error `each` throws stops it and
    /// comes out as it is; the store's own are `StoreError`s.
    func recover(including: (String) -> Bool, each: (RecoveredStream) throws -> Void) throws

    /// Finishes pending writes and releases the store. Later operations fail with `StoreError.closed`.
    func close()

    /// Whether appended records are kept at all; when false, callers may append empty records.
    var keepsRecords: Bool { get }

    /// What the store holds on disk and what the disk has left, as of the last commit; nil for a store
    /// that keeps nothing on disk.
    var diskUse: DiskUse? { get }
}

extension Journal {
    /// Every stream at once (for tests and tools; start-up takes them one at a time).
    public func recover() throws -> [RecoveredStream] {
        var streams: [RecoveredStream] = []
        try recover(including: { _ in true }) { streams.append($0) }
        return streams
    }

    /// Appends a record that does not start its stream.
    public func append(
        stream: String, record: [UInt8], durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        append(stream: stream, record: record, startsStream: false, durable: durable)
    }

    /// Replaces the stream's snapshot without waiting to hear that it is durable.
    public func saveSnapshot(stream: String, upTo journalSeq: UInt64, state: [UInt8]) {
        saveSnapshot(stream: stream, upTo: journalSeq, state: state, durable: nil)
    }

    /// Drops the stream's snapshot and records without waiting to hear that it is durable.
    public func deleteStream(_ stream: String) {
        deleteStream(stream, durable: nil)
    }

    /// Drops every stream without waiting to hear that it is durable.
    public func deleteAll() {
        deleteAll(durable: nil)
    }
}

/// A store's use of its disk: the bytes its live pages take (pages freed by deletions do not count: the
/// next writes reuse them; the write-ahead log adds a bounded amount) and the bytes the file system has left.
public struct DiskUse: Sendable, Equatable {
    public var usedBytes: Int64
    public var freeBytes: Int64

    public init(usedBytes: Int64, freeBytes: Int64) {
        self.usedBytes = usedBytes
        self.freeBytes = freeBytes
    }
}
