package import LifecycleCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A timeline entry as timelines retain it: the core's value in `EntryCoding`'s compact form, with what
/// reads filter on beside it. Readers render it in their format when they serve it.
///
/// One allocation holds all of it (`seq`, then the app's, the session's and the entry's bytes), and the
/// value is a reference to it: the device's timeline and its app's share it at 8 bytes each. (As a struct
/// of `seq`, two strings and an array it took two 48-byte values and an array of its own, about 176 bytes
/// for an entry of 46.) Sendable because the allocation never changes once made.
package struct RetainedEntry: @unchecked Sendable {
    private let storage: Storage

    package var seq: UInt64 { storage.fixed.seq }
    /// The app it is about; nil for a device-level entry.
    package var app: String? { storage.text(at: 0, count: storage.fixed.appCount) }
    /// The scene session the entry is about (`?session=` keeps only these).
    package var session: String? {
        let fixed = storage.fixed
        return storage.text(at: max(0, Int(fixed.appCount)), count: fixed.sessionCount)
    }
    /// How many bytes the entry's compact form takes (`EntryCoding`), what the history's budget counts.
    package var encodedCount: Int { Int(storage.fixed.encodedCount) }

    /// Whether the entry is about `app`, told by its bytes (no string is made).
    package func isAbout(app: String) -> Bool {
        let count = storage.fixed.appCount
        guard count >= 0 else { return false }
        var app = app
        return app.withUTF8 { utf8 in
            guard utf8.count == Int(count), let base = utf8.baseAddress else { return utf8.count == Int(count) }
            return storage.withUnsafeMutablePointerToElements { memcmp($0, base, utf8.count) == 0 }
        }
    }
    /// The entry's compact form, copied.
    package var encoded: [UInt8] { withEncoded { Array($0) } }

    /// Lends the entry's compact form for the duration of `body`.
    package func withEncoded<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointerToElements { elements in
            let header = storage.fixed
            let start = max(0, Int(header.appCount)) + max(0, Int(header.sessionCount))
            return try body(UnsafeRawBufferPointer(start: elements + start, count: Int(header.encodedCount)))
        }
    }

    package init(_ entry: TimelineEntry) {
        var scratch = ByteWriter()
        self.init(entry, through: &scratch)
    }

    /// Encodes through `scratch`, a buffer reused from entry to entry; the entry keeps exactly its bytes.
    private init(_ entry: TimelineEntry, through scratch: inout ByteWriter) {
        scratch.bytes.removeAll(keepingCapacity: true)
        EntryCoding.encode(entry, into: &scratch)
        storage = scratch.bytes.withUnsafeBytes { Storage.make(seq: entry.seq, app: entry.app, session: entry.session, encoded: $0) }
    }

    /// Each of `entries`, encoded through one buffer.
    package static func retaining(_ entries: [TimelineEntry]) -> [RetainedEntry] {
        var scratch = ByteWriter(reservingCapacity: 256)
        return entries.map { RetainedEntry($0, through: &scratch) }
    }

    /// An entry as a snapshot stored it; throws when its bytes do not read as an entry.
    init(seq: UInt64, app: String?, session: String?, encoded: [UInt8]) throws {
        _ = try EntryCoding.decode(encoded, seq: seq, app: app, session: session)
        storage = encoded.withUnsafeBytes { Storage.make(seq: seq, app: app, session: session, encoded: $0) }
    }

    private init(storage: Storage) { self.storage = storage }

    /// The slot of an evicted entry until its ring is compacted: it holds nothing (one shared empty entry;
    /// nothing reads a slot before the ring's start).
    static func evicted(_ seq: UInt64) -> RetainedEntry { RetainedEntry(storage: Storage.evicted) }

    package var isCallback: Bool { withEncoded { EntryCoding.kind(of: $0) } == .callback }
    package var isNotification: Bool { withEncoded { EntryCoding.kind(of: $0) } == .notification }

    /// The core's entry. Never nil for an entry made here or loaded (both are checked as they are made).
    package var entry: TimelineEntry? {
        let (seq, app, session) = (seq, app, session)
        return withEncoded { try? EntryCoding.decode($0, seq: seq, app: app, session: session) }
    }

    /// What one allocation holds before its bytes: the app's and the session's byte counts (-1: none).
    fileprivate struct Header {
        var seq: UInt64
        var appCount: Int16
        var sessionCount: Int16
        var encodedCount: UInt32
    }

    /// `Header`, then the app's UTF-8, the session's, and the entry's compact form. Never changed once made.
    fileprivate final class Storage: ManagedBuffer<Header, UInt8> {
        nonisolated(unsafe) static let evicted = make(seq: 0, app: nil, session: nil, encoded: UnsafeRawBufferPointer(start: nil, count: 0))

        static func make(seq: UInt64, app: String?, session: String?, encoded: UnsafeRawBufferPointer) -> Storage {
            var app = app
            var session = session
            let appCount = app?.utf8.count ?? -1
            let sessionCount = session?.utf8.count ?? -1
            // Identifiers are far shorter (`Identifier`); past Int16 a text would not fit its count.
            precondition(appCount <= Int(Int16.max) && sessionCount <= Int(Int16.max) && encoded.count <= Int(UInt32.max))
            let total = max(0, appCount) + max(0, sessionCount) + encoded.count
            let buffer = Storage.create(minimumCapacity: total) { _ in
                Header(
                    seq: seq, appCount: Int16(appCount), sessionCount: Int16(sessionCount),
                    encodedCount: UInt32(encoded.count))
            }
            buffer.withUnsafeMutablePointerToElements { elements in
                let afterApp = app?.withUTF8 { Self.copy(UnsafeRawBufferPointer($0), to: elements) } ?? elements
                let afterSession = session?.withUTF8 { Self.copy(UnsafeRawBufferPointer($0), to: afterApp) } ?? afterApp
                _ = Self.copy(encoded, to: afterSession)
            }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        /// Copies `bytes` to `at`; returns the place after them.
        private static func copy(_ bytes: UnsafeRawBufferPointer, to at: UnsafeMutablePointer<UInt8>)
            -> UnsafeMutablePointer<UInt8>
        {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return at }
            at.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            return at + bytes.count
        }

        /// The header, read through its pointer: `header` itself is a class's stored property, and every
        /// access to it would be checked for exclusivity at run time (the value never changes once made).
        var fixed: Header { withUnsafeMutablePointerToHeader { $0.pointee } }

        /// The text of `count` bytes at `offset` among the elements; nil when `count` is -1.
        func text(at offset: Int, count: Int16) -> String? {
            guard count >= 0 else { return nil }
            return withUnsafeMutablePointerToElements { elements in
                String(decoding: UnsafeBufferPointer(start: elements + offset, count: Int(count)), as: UTF8.self)
            }
        }
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
        bytes += entry.encodedCount
        return count > limit ? evictOldest() : nil
    }

    /// Evicts the oldest retained entry and returns it; nil when none is retained.
    mutating func evictOldest() -> RetainedEntry? {
        guard count > 0 else { return nil }
        let oldest = entries[start]
        evictedThrough = oldest.seq
        bytes -= oldest.encodedCount
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
