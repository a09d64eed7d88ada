/// The newest `limit` entries of one timeline, oldest first; older ones are evicted.
///
/// Held in chunks of `chunkSize` slots: a timeline grows by a chunk at a time and gives back a chunk once all
/// of it is evicted, so no entry is ever moved to grow it, and a full timeline holds fewer than two chunks
/// more than `limit` slots (its oldest entries may begin at the end of its first chunk). (One array, with its
/// evicted slots at the front until they were half of it, moved every entry at each doubling: under a uniform
/// load every timeline doubled in the same seconds, and answers waited 45–176 ms behind the copies and their
/// page faults.) A timeline below one chunk grows its only chunk by doubling, so a small timeline holds a small
/// allocation. The slots are counted as allocated (`slotBytes`), which the daemon's memory budget counts beside
/// the entries.
package struct EntryRing: Sendable {
    /// Slots per chunk at most: 24 KiB of entries, an allocation the allocator serves from its heap, not a
    /// mapping. A smaller `limit` takes chunks of the power of two at or above it (at least 16).
    static let largestChunk = 1024
    /// A chunk's slots are `1 << shift`.
    private let shift: Int
    private var chunkSize: Int { 1 << shift }

    /// Every chunk but the last holds `chunkSize` slots; the retained entries begin at `head` in the first.
    private var chunks: [[RetainedEntry]] = []
    private var head = 0
    package private(set) var count = 0
    package let limit: Int
    /// The highest `seq` evicted; 0 when nothing was.
    package private(set) var evictedThrough: UInt64 = 0
    /// Bytes of entries retained (`RetainedEntry.encoded`).
    package private(set) var bytes = 0
    /// Bytes the slots take, as allocated (the chunks and the list of them).
    package private(set) var slotBytes = 0

    /// `reserving`: room for that many entries at once (the entries a new timeline is made for), so a first
    /// change does not grow the timeline one doubling at a time.
    package init(limit: Int, evictedThrough: UInt64 = 0, reserving: Int = 0) {
        self.limit = max(1, limit)
        var shift = 4
        while 1 << shift < min(self.limit, Self.largestChunk) { shift += 1 }
        self.shift = shift
        self.evictedThrough = evictedThrough
        if reserving > 0 { addChunk(reserving: min(reserving, self.limit, 1 << shift)) }
    }

    /// The retained entries, oldest first.
    package var retained: Retained { Retained(chunks: chunks, head: head, count: count, shift: shift) }

    package var oldestSeq: UInt64? { count > 0 ? self[0].seq : nil }
    package var newestSeq: UInt64? { count > 0 ? self[count - 1].seq : nil }

    /// The `index`th retained entry, oldest first.
    private subscript(index: Int) -> RetainedEntry {
        let at = head + index
        return chunks[at >> shift][at & (chunkSize - 1)]
    }

    /// How far back `sharing` looks: a lifecycle's round (launch, Home, launch again) records a dozen entries.
    static let sharingWindow = 16

    /// `entry`, with the body of an equal entry among this timeline's newest (`sharingWindow`) when one
    /// holds the same bytes: what both timelines then keep, so a repeated entry costs no body of its own.
    /// The held entries are compared where their chunk holds them (read through the chunk's buffer, not copied
    /// out of it with their body retained and released for each comparison).
    package func sharing(_ entry: RetainedEntry) -> RetainedEntry {
        var left = min(count, Self.sharingWindow)
        var at = head + count - 1
        while left > 0 {
            let found: RetainedEntry?? = chunks[at >> shift].withUnsafeBufferPointer { slots in
                var slot = at & (chunkSize - 1)
                while slot >= 0, left > 0 {
                    if entry.sharesBody(with: slots[slot]) { return .some(nil) }
                    if let shared = entry.sharingBody(of: slots[slot]) { return .some(shared) }
                    slot -= 1
                    left -= 1
                    at -= 1
                }
                return nil
            }
            if let found { return found ?? entry }
        }
        return entry
    }

    /// Appends an entry; returns the entry evicted to stay within `limit` entries, if one was.
    @discardableResult
    package mutating func append(_ entry: RetainedEntry) -> RetainedEntry? {
        let evicted = count == limit ? evictOldest() : nil
        if chunks.isEmpty || chunks[chunks.count - 1].count == chunkSize {
            // A timeline's first chunk grows by doubling; once it holds more, a whole chunk at a time.
            addChunk(reserving: chunks.isEmpty ? 0 : chunkSize)
        }
        let last = chunks.count - 1
        let capacity = chunks[last].capacity
        chunks[last].append(entry)
        if chunks[last].capacity != capacity {
            slotBytes += (chunks[last].capacity - capacity) * MemoryLayout<RetainedEntry>.stride
        }
        bytes += entry.encodedCount
        count += 1
        return evicted
    }

    /// `append`, adding what it changed of `slotBytes` to `total` (a device's sum over its timelines).
    mutating func append(_ entry: RetainedEntry, countingSlotsIn total: inout Int) -> RetainedEntry? {
        let before = slotBytes
        defer { total += slotBytes - before }
        return append(entry)
    }

    /// `evictOldest`, adding what it changed of `slotBytes` to `total`.
    mutating func evictOldest(countingSlotsIn total: inout Int) -> RetainedEntry? {
        let before = slotBytes
        defer { total += slotBytes - before }
        return evictOldest()
    }

    /// Evicts the oldest retained entry and returns it; nil when none is retained. A chunk all evicted is
    /// given back.
    mutating func evictOldest() -> RetainedEntry? {
        guard count > 0 else { return nil }
        let oldest = chunks[0][head]
        evictedThrough = oldest.seq
        bytes -= oldest.encodedCount
        // The slot must not keep the entry's bytes alive until its chunk goes.
        chunks[0][head] = .evicted(oldest.seq)
        head += 1
        count -= 1
        if head == chunks[0].count {
            let listed = chunks.capacity
            slotBytes -= chunks[0].capacity * MemoryLayout<RetainedEntry>.stride
            chunks.removeFirst()
            if chunks.isEmpty { chunks = [] }
            slotBytes += (chunks.capacity - listed) * MemoryLayout<[RetainedEntry]>.stride
            head = 0
        }
        return oldest
    }

    /// Up to `limit` entries with `seq > after` that match, oldest first. (Their readers bound what they
    /// render of them by bytes.)
    package func page(after: UInt64, limit: Int, where matches: (RetainedEntry) -> Bool) -> [RetainedEntry] {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].seq <= after { low = middle + 1 } else { high = middle }
        }
        var result: [RetainedEntry] = []
        var index = low
        while index < count && result.count < limit {
            let entry = self[index]
            if matches(entry) { result.append(entry) }
            index += 1
        }
        return result
    }

    /// What `slotBytes` keeps count of, counted again from the chunks (for tests).
    var recountedSlotBytes: Int {
        chunks.reduce(chunks.capacity * MemoryLayout<[RetainedEntry]>.stride) {
            $0 + $1.capacity * MemoryLayout<RetainedEntry>.stride
        }
    }

    /// A chunk at the end, with room for `reserving` slots.
    private mutating func addChunk(reserving: Int) {
        var chunk: [RetainedEntry] = []
        if reserving > 0 { chunk.reserveCapacity(reserving) }
        let listed = chunks.capacity
        chunks.append(chunk)
        slotBytes +=
            chunk.capacity * MemoryLayout<RetainedEntry>.stride
            + (chunks.capacity - listed) * MemoryLayout<[RetainedEntry]>.stride
    }

    /// The retained entries of a ring as it was when read, oldest first.
    package struct Retained: RandomAccessCollection, Sendable {
        fileprivate let chunks: [[RetainedEntry]]
        fileprivate let head: Int
        package let count: Int
        fileprivate let shift: Int

        package var startIndex: Int { 0 }
        package var endIndex: Int { count }

        package subscript(index: Int) -> RetainedEntry {
            precondition(index >= 0 && index < count, "an index of a retained entry")
            let at = head + index
            return chunks[at >> shift][at & ((1 << shift) - 1)]
        }
    }
}
