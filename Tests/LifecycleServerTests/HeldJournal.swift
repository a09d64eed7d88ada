import Foundation
import LifecycleStore

/// A journal whose appends wait until the test releases them, with success or with an error: it acts out
/// a slow or failing store at a moment the test chooses. Keeps no records.
final class HeldJournal: Journal, @unchecked Sendable {
    private let lock = NSLock()
    private var held: [@Sendable (Result<UInt64, StoreError>) -> Void] = []
    private var lastSeq: UInt64 = 0

    var heldCount: Int { lock.withLock { held.count } }

    /// Completes every held append, in order, with `failure`, or with increasing sequence numbers.
    func release(failing failure: StoreError? = nil) {
        let appends = lock.withLock { () -> [(@Sendable (Result<UInt64, StoreError>) -> Void, UInt64)] in
            defer { held = [] }
            return held.map { durable in
                lastSeq += 1
                return (durable, lastSeq)
            }
        }
        for (durable, seq) in appends { durable(failure.map { .failure($0) } ?? .success(seq)) }
    }

    func append(
        stream: String, record: [UInt8], startsStream: Bool,
        durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        lock.withLock { held.append(durable) }
    }

    func saveSnapshot(stream: String, upTo journalSeq: UInt64, state: [UInt8], durable: DurableCompletion?) {
        durable?(.success(()))
    }

    func deleteStream(_ stream: String, durable: DurableCompletion?) { durable?(.success(())) }
    func deleteAll(durable: DurableCompletion?) { durable?(.success(())) }
    func flush() {}
    func recover(including: (String) -> Bool, each: (RecoveredStream) throws -> Void) throws {}
    func close() {}
    var keepsRecords: Bool { false }
    var diskUse: DiskUse? { nil }
}
