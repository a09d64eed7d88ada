import LifecycleCore

/// A timeline entry as served: encoded once, with what reads filter on.
struct StoredEntry: Sendable {
    let seq: UInt64
    let isCallback: Bool
    let isNotification: Bool
    /// The scene session the entry is about (`?session=` keeps only these).
    let session: String?
    let json: [UInt8]

    init(seq: UInt64, isCallback: Bool, isNotification: Bool, session: String? = nil, json: [UInt8]) {
        self.seq = seq
        self.isCallback = isCallback
        self.isNotification = isNotification
        self.session = session
        self.json = json
    }

    init(_ entry: TimelineEntry) {
        seq = entry.seq
        isCallback = entry.isCallback
        isNotification = entry.isNotification
        session = entry.session
        json = EntryEncoder.encode(entry)
    }
}

/// The newest `limit` entries of one timeline, oldest first; older ones are evicted.
struct EntryRing: Sendable {
    private var entries: [StoredEntry] = []
    private var start = 0
    let limit: Int
    /// The highest `seq` evicted; 0 when nothing was.
    private(set) var evictedThrough: UInt64 = 0

    init(limit: Int, evictedThrough: UInt64 = 0) {
        self.limit = limit
        self.evictedThrough = evictedThrough
    }

    /// The retained entries, oldest first.
    var retained: ArraySlice<StoredEntry> { entries[start...] }

    var count: Int { entries.count - start }
    var oldestSeq: UInt64? { count > 0 ? entries[start].seq : nil }

    /// Appends an entry; returns how many entries were evicted to make room.
    mutating func append(_ entry: StoredEntry) -> Int {
        entries.append(entry)
        guard count > limit else { return 0 }
        evictedThrough = entries[start].seq
        start += 1
        if start >= 1024 && start * 2 >= entries.count {
            entries.removeFirst(start)
            start = 0
        }
        return 1
    }

    /// Up to `limit` entries with `seq > after` that match, oldest first.
    func page(after: UInt64, limit: Int, where matches: (StoredEntry) -> Bool) -> [StoredEntry] {
        var low = start
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].seq <= after { low = middle + 1 } else { high = middle }
        }
        var result: [StoredEntry] = []
        var index = low
        while index < entries.count && result.count < limit {
            if matches(entries[index]) { result.append(entries[index]) }
            index += 1
        }
        return result
    }
}
