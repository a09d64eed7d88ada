package import LifecycleCore

/// A timeline entry as served: encoded once, with what reads filter on.
package struct RenderedEntry: Sendable {
    package let seq: UInt64
    /// The app it is about; nil for a device-level entry.
    package let app: String?
    package let isCallback: Bool
    package let isNotification: Bool
    /// The scene session the entry is about (`?session=` keeps only these).
    package let session: String?
    package let json: [UInt8]

    package init(seq: UInt64, app: String?, isCallback: Bool, isNotification: Bool, session: String? = nil, json: [UInt8]) {
        self.seq = seq
        self.app = app
        self.isCallback = isCallback
        self.isNotification = isNotification
        self.session = session
        self.json = json
    }

    package init(_ entry: TimelineEntry, json: [UInt8]) {
        seq = entry.seq
        app = entry.app
        isCallback = entry.isCallback
        isNotification = entry.isNotification
        session = entry.session
        self.json = json
    }
}

/// The newest `limit` entries of one timeline, oldest first; older ones are evicted.
package struct EntryRing: Sendable {
    private var entries: [RenderedEntry] = []
    private var start = 0
    package let limit: Int
    /// The highest `seq` evicted; 0 when nothing was.
    package private(set) var evictedThrough: UInt64 = 0
    /// Bytes of JSON retained.
    package private(set) var bytes = 0

    package init(limit: Int, evictedThrough: UInt64 = 0) {
        self.limit = limit
        self.evictedThrough = evictedThrough
    }

    /// The retained entries, oldest first.
    package var retained: ArraySlice<RenderedEntry> { entries[start...] }

    package var count: Int { entries.count - start }
    package var oldestSeq: UInt64? { count > 0 ? entries[start].seq : nil }
    package var newestSeq: UInt64? { count > 0 ? entries[entries.count - 1].seq : nil }

    /// Appends an entry; returns the entry evicted to stay within `limit` entries, if one was.
    @discardableResult
    package mutating func append(_ entry: RenderedEntry) -> RenderedEntry? {
        entries.append(entry)
        bytes += entry.json.count
        return count > limit ? evictOldest() : nil
    }

    /// Evicts the oldest retained entry and returns it; nil when none is retained.
    mutating func evictOldest() -> RenderedEntry? {
        guard count > 0 else { return nil }
        let oldest = entries[start]
        evictedThrough = oldest.seq
        bytes -= oldest.json.count
        // The slot stays until the array is compacted: it must not keep the entry's JSON alive meanwhile
        // (with large entries, up to 1,023 of them per ring would stay in memory, uncounted).
        entries[start] = RenderedEntry(seq: oldest.seq, app: nil, isCallback: false, isNotification: false, json: [])
        start += 1
        if start >= 1024 && start * 2 >= entries.count {
            entries.removeFirst(start)
            start = 0
        }
        return oldest
    }

    /// Up to `limit` entries with `seq > after` that match, oldest first, and no more once their JSON has
    /// reached `maxBytes` (so at most one entry past it; a page always moves on).
    package func page(
        after: UInt64, limit: Int, maxBytes: Int = .max, where matches: (RenderedEntry) -> Bool
    ) -> [RenderedEntry] {
        var low = start
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].seq <= after { low = middle + 1 } else { high = middle }
        }
        var result: [RenderedEntry] = []
        var resultBytes = 0
        var index = low
        while index < entries.count && result.count < limit {
            let entry = entries[index]
            if matches(entry) {
                if resultBytes >= maxBytes { break }
                result.append(entry)
                resultBytes += entry.json.count + 1
            }
            index += 1
        }
        return result
    }
}
