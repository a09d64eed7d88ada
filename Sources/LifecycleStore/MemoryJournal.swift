import Foundation

/// A journal that keeps nothing, for running without a data directory (`--in-memory`).
///
/// Completions run synchronously on the caller's thread and succeed, with increasing sequence numbers,
/// except appends and snapshots refused for a stream deleted in this process (as `SQLiteJournal` refuses
/// them). Recovery always finds nothing.
public final class MemoryJournal: Journal, @unchecked Sendable {
    // Guards `lastSeq` and `deletions`; the class has no other mutable state.
    private let lock = NSLock()
    private var lastSeq: UInt64 = 0
    private var deletions = StreamDeletions()

    public init() {}

    public var keepsRecords: Bool { false }

    public var diskUse: DiskUse? { nil }

    public func append(
        stream: String, record: [UInt8], startsStream: Bool,
        durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        let seq = lock.withLock { () -> UInt64? in
            if !startsStream, deletions.isDeleted(stream) { return nil }
            lastSeq += 1
            if startsStream { deletions.start(stream, at: lastSeq) }
            return lastSeq
        }
        durable(seq.map { .success($0) } ?? .failure(.streamDeleted(stream: stream)))
    }

    public func saveSnapshot(stream: String, upTo journalSeq: UInt64, state: [UInt8], durable: DurableCompletion?) {
        let refused = lock.withLock { deletions.refusesSnapshot(of: stream, upTo: journalSeq) }
        durable?(refused ? .failure(.streamDeleted(stream: stream)) : .success(()))
    }

    public func deleteStream(_ stream: String, durable: DurableCompletion?) {
        lock.withLock { deletions.delete(stream) }
        durable?(.success(()))
    }

    public func deleteAll(durable: DurableCompletion?) {
        lock.withLock { deletions.deleteAll(nextSeq: lastSeq + 1) }
        durable?(.success(()))
    }

    public func flush() {}

    public func recover(including: (String) -> Bool, each: (RecoveredStream) throws -> Void) throws {}

    public func close() {}
}
