/// The inputs a device accepted, from its creation, in order, as journal records: what an export replays.
///
/// Bounded by bytes (`--recording-bytes`, kept by the host, `DeviceHost.recordingLeft`): a device that accepts
/// more stops recording and drops what it had, since a replay must start from the device's creation. So does
/// a device restored from a snapshot saved without its inputs (before recordings were kept).
///
/// The records are kept end to end in chunks of at most `chunkBytes` (a record never spans two; one larger
/// than a chunk has a chunk of its own), with where each ends in its chunk. A chunk grows by doubling up to its
/// size and is not moved again once full, so appending copies at most a chunk, and a copy held by a reader
/// shares every chunk but the last. (As one buffer, every device driven alike reached each doubling, and its
/// bound, in the same second: a hundred buffers of half a megabyte copied into new pages and given back to the
/// system at once stalled `bench/stalls`'s POSTs for 160 ms, with 21,800 page faults in that second against
/// some 450 in the others; BENCHMARKS.md. As an array of arrays, before that, a recording of 1 MiB was some ten
/// thousand allocations to free.)
package struct InputRecording: Sendable {
    /// The largest chunk: below the C library's threshold for giving memory straight back to the system
    /// (`M_MMAP_THRESHOLD`, 128 KiB), so a chunk dropped is memory the next one reuses.
    static let chunkBytes = 64 * 1024

    /// One run of records, end to end, with where each ends.
    private struct Chunk {
        var bytes: [UInt8] = []
        var ends: [UInt32] = []

        var heldBytes: Int { bytes.capacity + ends.capacity * MemoryLayout<UInt32>.stride }
    }

    /// The chunks, oldest first; only the last is appended to.
    private var chunks: [Chunk] = []
    /// What the chunks before the last hold (`Chunk.heldBytes`), and their records' bytes.
    private var sealedHeld = 0
    private var sealedBytes = 0
    /// How many records are kept.
    package private(set) var count = 0
    /// False once an input was not kept: the recording no longer replays the device from its creation.
    package private(set) var complete: Bool

    package init(records: [[UInt8]] = [], complete: Bool = true) {
        self.complete = complete
        guard complete else { return }
        for record in records { append(record) }
    }

    /// Bytes of the records kept (what `--recording-bytes` bounds).
    package var bytes: Int { sealedBytes + (chunks.last?.bytes.count ?? 0) }

    /// Bytes the recording takes in memory, what the daemon's budget counts: its chunks and offsets as allocated
    /// (the last chunk grows by doubling, so up to twice its records) and the list of chunks.
    package var heldBytes: Int {
        sealedHeld + (chunks.last?.heldBytes ?? 0) + chunks.capacity * MemoryLayout<Chunk>.stride
    }

    /// The records, oldest first (`JournalRecordFormat`); empty once incomplete. Each is a copy: read it outside
    /// any lock.
    package var records: [[UInt8]] {
        var records: [[UInt8]] = []
        records.reserveCapacity(count)
        for chunk in chunks {
            var start = 0
            for end in chunk.ends {
                records.append(Array(chunk.bytes[start..<Int(end)]))
                start = Int(end)
            }
        }
        return records
    }

    mutating func append(_ record: [UInt8]) {
        guard complete else { return }
        let needed = (chunks.last?.bytes.count ?? 0) + record.count
        if chunks.isEmpty || (needed > Self.chunkBytes && !chunks[chunks.count - 1].bytes.isEmpty) {
            if let last = chunks.last {
                sealedHeld += last.heldBytes
                sealedBytes += last.bytes.count
            }
            chunks.append(Chunk())
        }
        let last = chunks.count - 1
        let size = chunks[last].bytes.count + record.count
        if size > chunks[last].bytes.capacity {
            // Doubling, as an array grows, but never past a chunk (unless the record alone is larger).
            chunks[last].bytes.reserveCapacity(max(size, min(Self.chunkBytes, 2 * chunks[last].bytes.capacity)))
        }
        chunks[last].bytes.append(contentsOf: record)
        chunks[last].ends.append(UInt32(size))
        count += 1
    }

    /// Stops recording: what was kept no longer replays the device.
    mutating func stop() {
        complete = false
        chunks = []
        sealedHeld = 0
        sealedBytes = 0
        count = 0
    }

    /// What one accepted input does to a recording.
    enum Step {
        case keep([UInt8])
        case stop
        case none
    }
}
