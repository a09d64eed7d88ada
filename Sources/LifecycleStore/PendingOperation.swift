/// A write accepted by the journal and waiting for the writer thread.
enum PendingOperation {
    case append(
        seq: UInt64, stream: String, record: [UInt8], startsStream: Bool,
        durable: @Sendable (Result<UInt64, StoreError>) -> Void)
    /// A snapshot already committed to the snapshot store, as `stored` there, to be named by the journal.
    case nameSnapshot(stream: String, upTo: UInt64, stored: Int64, durable: DurableCompletion?)
    case deleteStream(String, durable: DurableCompletion?)
    case deleteAll(durable: DurableCompletion?)

    /// Tells the caller how its operation ended: `nil` means committed.
    func complete(failure: StoreError?) {
        switch self {
        case .append(let seq, _, _, _, let durable):
            durable(failure.map { .failure($0) } ?? .success(seq))
        case .nameSnapshot(_, _, _, let durable), .deleteStream(_, let durable), .deleteAll(let durable):
            durable?(failure.map { .failure($0) } ?? .success(()))
        }
    }
}
