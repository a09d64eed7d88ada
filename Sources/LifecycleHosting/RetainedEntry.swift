package import LifecycleCore

/// A timeline entry as timelines retain it: the core's value in `EntryCoding`'s compact form, with what
/// reads filter on beside it. Readers render it in their format when they serve it.
package struct RetainedEntry: Sendable {
    package let seq: UInt64
    /// The app it is about; nil for a device-level entry.
    package let app: String?
    /// The scene session the entry is about (`?session=` keeps only these).
    package let session: String?
    /// The rest of the entry (`EntryCoding`).
    package let encoded: [UInt8]

    package init(_ entry: TimelineEntry) {
        var scratch = ByteWriter()
        self.init(entry, through: &scratch)
    }

    /// Encodes through `scratch`, a buffer reused from entry to entry, into an array of exactly the entry's
    /// size, not the buffer's: entries are kept for long.
    private init(_ entry: TimelineEntry, through scratch: inout ByteWriter) {
        seq = entry.seq
        app = entry.app
        session = entry.session
        scratch.bytes.removeAll(keepingCapacity: true)
        EntryCoding.encode(entry, into: &scratch)
        encoded = scratch.bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// Each of `entries`, encoded through one buffer.
    package static func retaining(_ entries: [TimelineEntry]) -> [RetainedEntry] {
        var scratch = ByteWriter(reservingCapacity: 256)
        return entries.map { RetainedEntry($0, through: &scratch) }
    }

    /// An entry as a snapshot stored it; throws when its bytes do not read as an entry.
    init(seq: UInt64, app: String?, session: String?, encoded: [UInt8]) throws {
        _ = try EntryCoding.decode(encoded, seq: seq, app: app, session: session)
        self.seq = seq
        self.app = app
        self.session = session
        self.encoded = encoded
    }

    /// The slot of an evicted entry until its ring is compacted: it holds nothing.
    private init(evicted seq: UInt64) {
        self.seq = seq
        app = nil
        session = nil
        encoded = []
    }

    static func evicted(_ seq: UInt64) -> RetainedEntry { RetainedEntry(evicted: seq) }

    package var isCallback: Bool { EntryCoding.kind(of: encoded) == .callback }
    package var isNotification: Bool { EntryCoding.kind(of: encoded) == .notification }

    /// The core's entry. Never nil for an entry made here or loaded (both are checked as they are made).
    package var entry: TimelineEntry? {
        try? EntryCoding.decode(encoded, seq: seq, app: app, session: session)
    }
}

/// The newest `limit` entries of one timeline, oldest first; older ones are evicted.
package struct EntryRing: Sendable {
    private var entries: [RetainedEntry] = []
    private var start = 0
    package let limit: Int
    /// The highest `seq` evicted; 0 when nothing was.
    package private(set) var evictedThrough: UInt64 = 0
    /// Bytes of entries retained (`RetainedEntry.encoded`).
    package private(set) var bytes = 0

    package init(limit: Int, evictedThrough: UInt64 = 0) {
        self.limit = limit
        self.evictedThrough = evictedThrough
    }

    /// The retained entries, oldest first.
    package var retained: ArraySlice<RetainedEntry> { entries[start...] }

    package var count: Int { entries.count - start }
    package var oldestSeq: UInt64? { count > 0 ? entries[start].seq : nil }
    package var newestSeq: UInt64? { count > 0 ? entries[entries.count - 1].seq : nil }

    /// Appends an entry; returns the entry evicted to stay within `limit` entries, if one was.
    @discardableResult
    package mutating func append(_ entry: RetainedEntry) -> RetainedEntry? {
        entries.append(entry)
        bytes += entry.encoded.count
        return count > limit ? evictOldest() : nil
    }

    /// Evicts the oldest retained entry and returns it; nil when none is retained.
    mutating func evictOldest() -> RetainedEntry? {
        guard count > 0 else { return nil }
        let oldest = entries[start]
        evictedThrough = oldest.seq
        bytes -= oldest.encoded.count
        // The slot stays until the array is compacted: it must not keep the entry's bytes alive meanwhile
        // (with large entries, up to 1,023 of them per ring would stay in memory, uncounted).
        entries[start] = .evicted(oldest.seq)
        start += 1
        if start >= 1024 && start * 2 >= entries.count {
            entries.removeFirst(start)
            start = 0
        }
        return oldest
    }

    /// Up to `limit` entries with `seq > after` that match, oldest first. (Their readers bound what they
    /// render of them by bytes.)
    package func page(after: UInt64, limit: Int, where matches: (RetainedEntry) -> Bool) -> [RetainedEntry] {
        var low = start
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].seq <= after { low = middle + 1 } else { high = middle }
        }
        var result: [RetainedEntry] = []
        var index = low
        while index < entries.count && result.count < limit {
            let entry = entries[index]
            if matches(entry) { result.append(entry) }
            index += 1
        }
        return result
    }
}
