package import LifecycleCore

/// The entries of a device's latest change as the API served them, in the answer to that change: readers woken
/// by the change (parked long polls, event streams) copy each entry's bytes from here instead of rendering it
/// again, so a change is rendered once however many readers follow it. Guarded by the host's lock
/// (`PublishedDevice.served`); an entry's bytes never change once served.
///
/// Held only by a device whose change woke a reader, until its next change, and only for an answer of at most
/// `maxHeldBytes`: what the daemon holds for it is bounded by the readers it serves.
package struct ServedEntries: Sendable {
    /// The answer; each entry is a range of it.
    private let bytes: [UInt8]
    /// The `seq` of the first entry; the others follow it one by one.
    private let firstSeq: UInt64
    private let ranges: [Range<Int>]

    /// Most bytes an answer may take to be held until the device's next change; a larger one is not kept.
    package static let maxHeldBytes = 16 << 10

    package static let none = ServedEntries(bytes: [], firstSeq: 0, ranges: [])

    private init(bytes: [UInt8], firstSeq: UInt64, ranges: [Range<Int>]) {
        self.bytes = bytes
        self.firstSeq = firstSeq
        self.ranges = ranges
    }

    /// `entries` as `answer` holds them (`answer.entries`, one range per entry, in order); `none` when the answer
    /// is over `maxHeldBytes`, the counts differ, or the entries' `seq`s do not follow one another.
    package init(_ answer: RenderedAnswer, of entries: [TimelineEntry]) {
        guard let first = entries.first?.seq, answer.body.count <= Self.maxHeldBytes,
            answer.entries.count == entries.count, entries.last?.seq == first + UInt64(entries.count - 1)
        else {
            self = .none
            return
        }
        self.init(bytes: answer.body, firstSeq: first, ranges: answer.entries)
    }

    /// Lends entry `seq`'s bytes, as served, to `read`; false (nothing read) when they are not held here.
    package func withServed(_ seq: UInt64, _ read: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard seq >= firstSeq, seq - firstSeq < UInt64(ranges.count) else { return false }
        let range = ranges[Int(seq - firstSeq)]
        bytes.withUnsafeBufferPointer { read(UnsafeBufferPointer(rebasing: $0[range])) }
        return true
    }
}

/// An answer to applied events (`HostRendering.answer(to:)`): its bytes, and where in them each of the
/// outcome's entries is, in order (what `ServedEntries` keeps).
package struct RenderedAnswer: Sendable {
    package var body: [UInt8]
    package var entries: [Range<Int>]

    package init(body: [UInt8], entries: [Range<Int>]) {
        self.body = body
        self.entries = entries
    }
}
