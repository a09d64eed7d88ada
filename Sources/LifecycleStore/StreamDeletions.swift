/// Which streams were deleted in this process and not started again.
///
/// An append to a stream deleted with `deleteStream` is refused rather than recreating it without its
/// first record, and a snapshot of it, or one older than the stream's restart or the last `deleteAll`, is
/// dropped: a write that raced with a deletion never brings the stream back. Grows with the names deleted
/// or started in this process.
struct StreamDeletions {
    private var deleted: Set<String> = []
    /// The sequence number of the record that started each stream started in this process.
    private var started: [String: UInt64] = [:]
    /// The first sequence number after the last `deleteAll`: no snapshot of a record before it is kept.
    private var floor: UInt64 = 0

    func isDeleted(_ stream: String) -> Bool {
        deleted.contains(stream)
    }

    /// Whether a snapshot of `stream` covering records up to `seq` must be dropped.
    func refusesSnapshot(of stream: String, upTo seq: UInt64) -> Bool {
        isDeleted(stream) || seq < max(started[stream, default: 0], floor)
    }

    mutating func start(_ stream: String, at seq: UInt64) {
        deleted.remove(stream)
        started[stream] = seq
    }

    mutating func delete(_ stream: String) {
        deleted.insert(stream)
        started[stream] = nil
    }

    /// Every stream goes; `nextSeq` is the sequence number the next record will get. Appends to a stream
    /// that is not started again are not refused (its name is not known here): hosts stop appending first.
    mutating func deleteAll(nextSeq: UInt64) {
        deleted = []
        started = [:]
        floor = nextSeq
    }
}
