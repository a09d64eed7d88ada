/// The inputs a device accepted, from its creation, in order, as journal records: what an export replays.
///
/// Bounded by bytes (`--recording-bytes`, kept by the host, `DeviceHost.recordingLeft`): a device that accepts
/// more stops recording and drops what it had, since a replay must start from the device's creation. So does
/// a device restored from a snapshot saved without its inputs (before recordings were kept).
///
/// The records are kept end to end in one buffer, with where each ends: appending copies the record's bytes,
/// and dropping a recording frees two allocations. (As an array of arrays, a recording of 1 MiB was some ten
/// thousand allocations, which every device reaching its bound at about the same time freed on its queue at
/// once: `bench/run`'s POSTs stalled for 100 ms while they did, BENCHMARKS.md.)
package struct InputRecording: Sendable {
    /// Every record's bytes, end to end.
    private var storage: [UInt8] = []
    /// Where each record ends in `storage`.
    private var ends: [Int] = []
    /// False once an input was not kept: the recording no longer replays the device from its creation.
    package private(set) var complete: Bool

    package init(records: [[UInt8]] = [], complete: Bool = true) {
        self.complete = complete
        guard complete else { return }
        for record in records { append(record) }
    }

    /// Bytes of the records kept (what `--recording-bytes` bounds).
    package var bytes: Int { storage.count }

    /// Bytes the recording takes in memory, what the daemon's budget counts: its buffer and offsets as allocated,
    /// which grow by doubling, so up to twice `bytes`.
    package var heldBytes: Int { storage.capacity + ends.capacity * MemoryLayout<Int>.stride }

    /// How many records are kept.
    package var count: Int { ends.count }

    /// The records, oldest first (`JournalRecordFormat`); empty once incomplete. Each is a copy: read it outside
    /// any lock.
    package var records: [[UInt8]] {
        var start = 0
        return ends.map { end in
            defer { start = end }
            return Array(storage[start..<end])
        }
    }

    mutating func append(_ record: [UInt8]) {
        guard complete else { return }
        storage.append(contentsOf: record)
        ends.append(storage.count)
    }

    /// Stops recording: what was kept no longer replays the device.
    mutating func stop() {
        complete = false
        storage = []
        ends = []
    }

    /// What one accepted input does to a recording.
    enum Step {
        case keep([UInt8])
        case stop
        case none
    }
}
