import Foundation

/// A journal that keeps nothing, for running without a data directory (`--in-memory`).
///
/// Completions run synchronously on the caller's thread and always succeed, with increasing sequence
/// numbers. Recovery always finds nothing.
public final class MemoryJournal: Journal, @unchecked Sendable {
    // Guards `lastSeq`; the class has no other mutable state.
    private let lock = NSLock()
    private var lastSeq: UInt64 = 0

    public init() {}

    public var keepsRecords: Bool { false }

    public func append(
        stream: String,
        record: [UInt8],
        durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        let seq = lock.withLock {
            lastSeq += 1
            return lastSeq
        }
        durable(.success(seq))
    }

    public func saveSnapshot(stream: String, upTo journalSeq: UInt64, state: [UInt8], durable: DurableCompletion?) {
        durable?(.success(()))
    }

    public func deleteStream(_ stream: String, durable: DurableCompletion?) {
        durable?(.success(()))
    }

    public func deleteAll(durable: DurableCompletion?) {
        durable?(.success(()))
    }

    public func flush() {}

    public func recover() throws(StoreError) -> [RecoveredStream] { [] }

    public func close() {}
}
