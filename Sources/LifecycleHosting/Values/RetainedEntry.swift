package import LifecycleCore
import LifecyclePersistence

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
/// `seq` and the time, which differ from entry to entry, are kept in the value; everything else (the app,
/// the session, the kind and the rest of the compact form) in one immutable allocation, its body, which
/// entries with the same body share: an app going through the same lifecycle again records the same
/// callbacks and notifications at other times, and its timeline hands a new entry the body of an equal one
/// it holds (`EntryRing.sharing`). The device's timeline and its app's hold the same value, 24 bytes each.
/// (As a struct of `seq`, two strings and an array, an entry of 46 bytes took about 176.) Sendable because
/// a body never changes once made.
package struct RetainedEntry: @unchecked Sendable {
    package let seq: UInt64
    /// The time's 8 bytes as the compact form holds them (after the kind).
    private let time: UInt64
    private let body: Body

    /// The app it is about; nil for a device-level entry.
    package var app: String? { body.text(at: 0, count: body.fixed.appCount) }
    /// The scene session the entry is about (`?session=` keeps only these).
    package var session: String? {
        let fixed = body.fixed
        return body.text(at: max(0, Int(fixed.appCount)), count: fixed.sessionCount)
    }
    /// How many bytes the entry's compact form takes (`EntryCoding`), what the history's budget counts.
    package var encodedCount: Int {
        let count = Int(body.fixed.codeCount)
        return count == 0 ? 0 : count + Self.timeBytes
    }

    /// Whether the entry is about `app`, told by its bytes (no string is made).
    package func isAbout(app: String) -> Bool { body.holds(app, at: 0, count: body.fixed.appCount) }

    /// Whether the entry is about scene session `session`, told by its bytes (no string is made).
    package func isIn(session: String) -> Bool {
        let fixed = body.fixed
        return body.holds(session, at: max(0, Int(fixed.appCount)), count: fixed.sessionCount)
    }

    /// The entry's compact form, copied.
    package var encoded: [UInt8] { withEncoded { Array($0) } }

    /// Lends the entry's compact form (assembled on the stack: kind, time, rest) for the duration of `read`.
    package func withEncoded<Result>(_ read: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let count = encodedCount
        guard count > 0 else { return try read(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { out in
            body.withUnsafeMutablePointerToElements { elements in
                let fixed = body.fixed
                let code = elements + max(0, Int(fixed.appCount)) + max(0, Int(fixed.sessionCount))
                out[0] = code.pointee
                out.storeBytes(of: time, toByteOffset: 1, as: UInt64.self)
                (out.baseAddress! + 1 + Self.timeBytes).copyMemory(from: code + 1, byteCount: Int(fixed.codeCount) - 1)
            }
            return try read(UnsafeRawBufferPointer(out))
        }
    }

    package init(_ entry: TimelineEntry) {
        var scratch = ByteWriter()
        self.init(entry, through: &scratch)
    }

    /// Encodes through `scratch`, a buffer reused from entry to entry; the body keeps exactly its bytes.
    private init(_ entry: TimelineEntry, through scratch: inout ByteWriter) {
        scratch.bytes.removeAll(keepingCapacity: true)
        EntryCoding.encode(entry, into: &scratch)
        self = scratch.bytes.withUnsafeBytes {
            RetainedEntry(seq: entry.seq, app: entry.app, session: entry.session, checked: $0)
        }
    }

    /// Each of `entries`, encoded through one buffer.
    package static func retaining(_ entries: [TimelineEntry]) -> [RetainedEntry] {
        var scratch = ByteWriter(reservingCapacity: 256)
        return entries.map { RetainedEntry($0, through: &scratch) }
    }

    /// An entry as a snapshot stored it; throws when its bytes do not read as an entry.
    init(seq: UInt64, app: String?, session: String?, encoded: [UInt8]) throws {
        _ = try EntryCoding.decode(encoded, seq: seq, app: app, session: session)
        self = encoded.withUnsafeBytes { RetainedEntry(seq: seq, app: app, session: session, checked: $0) }
    }

    /// From bytes known to be an entry's compact form (at least its kind and time).
    private init(seq: UInt64, app: String?, session: String?, checked encoded: UnsafeRawBufferPointer) {
        precondition(encoded.count > Self.timeBytes, "an entry's compact form holds its kind and time")
        self.seq = seq
        time = encoded.loadUnaligned(fromByteOffset: 1, as: UInt64.self)
        body = Body.make(
            app: app, session: session, kind: encoded[0],
            rest: UnsafeRawBufferPointer(rebasing: encoded[(1 + Self.timeBytes)...]))
    }

    private init(seq: UInt64, time: UInt64, body: Body) {
        self.seq = seq
        self.time = time
        self.body = body
    }

    /// The slot of an evicted entry until its ring writes another there: it holds nothing (one shared empty
    /// body; nothing reads a slot outside the ring's retained entries).
    static func evicted(_ seq: UInt64) -> RetainedEntry { RetainedEntry(seq: seq, time: 0, body: Body.empty) }

    /// This entry with `other`'s body when the two bodies hold the same bytes; else this entry.
    func sharingBody(of other: RetainedEntry) -> RetainedEntry? {
        guard body !== other.body, body.sameBytes(as: other.body) else { return nil }
        return RetainedEntry(seq: seq, time: time, body: other.body)
    }

    /// Whether the two entries' bodies are one allocation.
    package func sharesBody(with other: RetainedEntry) -> Bool { body === other.body }

    package var isCallback: Bool { kind == .callback }
    package var isNotification: Bool { kind == .notification }

    private var kind: EntryCoding.Kind? {
        let fixed = body.fixed
        guard fixed.codeCount > 0 else { return nil }
        return body.withUnsafeMutablePointerToElements { elements in
            EntryCoding.Kind(rawValue: elements[max(0, Int(fixed.appCount)) + max(0, Int(fixed.sessionCount))])
        }
    }

    /// The core's entry. Never nil for an entry made here or loaded (both are checked as they are made).
    package var entry: TimelineEntry? {
        let (seq, app, session) = (seq, app, session)
        return withEncoded { try? EntryCoding.decode($0, seq: seq, app: app, session: session) }
    }

    private static let timeBytes = 8

    /// What a body holds before its bytes: the app's and the session's byte counts (-1: none), and the count
    /// of the kind and the rest of the compact form (0: none, the evicted slots' body).
    fileprivate struct Header: Equatable {
        var appCount: Int16
        var sessionCount: Int16
        var codeCount: UInt32
    }

    /// `Header`, then the app's UTF-8, the session's, the kind, and the compact form after the time.
    fileprivate final class Body: ManagedBuffer<Header, UInt8> {
        nonisolated(unsafe) static let empty = make(
            app: nil, session: nil, kind: nil, rest: UnsafeRawBufferPointer(start: nil, count: 0))

        static func make(app: String?, session: String?, kind: UInt8?, rest: UnsafeRawBufferPointer) -> Body {
            var app = app
            var session = session
            let appCount = app?.utf8.count ?? -1
            let sessionCount = session?.utf8.count ?? -1
            let codeCount = kind == nil ? 0 : 1 + rest.count
            // Identifiers are far shorter (`Identifier`); past Int16 a text would not fit its count.
            precondition(appCount <= Int(Int16.max) && sessionCount <= Int(Int16.max) && codeCount <= Int(UInt32.max))
            let total = max(0, appCount) + max(0, sessionCount) + codeCount
            let buffer = Body.create(minimumCapacity: total) { _ in
                Header(appCount: Int16(appCount), sessionCount: Int16(sessionCount), codeCount: UInt32(codeCount))
            }
            buffer.withUnsafeMutablePointerToElements { elements in
                let afterApp = app?.withUTF8 { copy(UnsafeRawBufferPointer($0), to: elements) } ?? elements
                let afterSession = session?.withUTF8 { copy(UnsafeRawBufferPointer($0), to: afterApp) } ?? afterApp
                if let kind {
                    afterSession.pointee = kind
                    _ = copy(rest, to: afterSession + 1)
                }
            }
            return unsafeDowncast(buffer, to: Body.self)
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

        var byteCount: Int {
            let fixed = fixed
            return max(0, Int(fixed.appCount)) + max(0, Int(fixed.sessionCount)) + Int(fixed.codeCount)
        }

        /// Whether `other` holds the same app, session and compact form.
        func sameBytes(as other: Body) -> Bool {
            guard fixed == other.fixed else { return false }
            let count = byteCount
            return withUnsafeMutablePointerToElements { mine in
                other.withUnsafeMutablePointerToElements { theirs in memcmp(mine, theirs, count) == 0 }
            }
        }

        /// Whether the `count` bytes at `offset` among the elements are `text`'s (never when `count` is -1).
        func holds(_ text: String, at offset: Int, count: Int16) -> Bool {
            guard count >= 0 else { return false }
            var text = text
            return text.withUTF8 { utf8 in
                guard utf8.count == Int(count), let base = utf8.baseAddress else { return utf8.count == Int(count) }
                return withUnsafeMutablePointerToElements { memcmp($0 + offset, base, utf8.count) == 0 }
            }
        }

        /// The text of `count` bytes at `offset` among the elements; nil when `count` is -1.
        func text(at offset: Int, count: Int16) -> String? {
            guard count >= 0 else { return nil }
            return withUnsafeMutablePointerToElements { elements in
                String(decoding: UnsafeBufferPointer(start: elements + offset, count: Int(count)), as: UTF8.self)
            }
        }
    }
}
