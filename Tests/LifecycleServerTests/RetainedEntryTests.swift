import LifecycleCore
@testable import LifecycleHosting
import LifecycleJSON
@testable import LifecycleWire
import Testing

/// Timelines retain each entry as the core's value in `EntryCoding`'s compact form: it reads back as the
/// same entry, takes fewer bytes than its JSON, and bytes that are not an entry are refused.
@Suite struct RetainedEntryTests {
    @Test func everyKindReadsBackAsTheSameEntry() throws {
        for entry in EntryDecoderTests.handMade {
            let retained = RetainedEntry(entry)
            #expect(retained.entry == entry, "\(entry)")
            #expect(retained.isCallback == entry.isCallback)
            #expect(retained.isNotification == entry.isNotification)
            #expect((retained.seq, retained.app, retained.session) == (entry.seq, entry.app, entry.session))
            let again = try RetainedEntry(
                seq: entry.seq, app: entry.app, session: entry.session, encoded: retained.encoded)
            #expect(again.entry == entry)
        }
    }

    /// A callback as devices record them most: under half the bytes of its JSON, in an array of its own size.
    @Test func aCallbackTakesFewerBytesThanItsJSON() throws {
        let entry = TimelineEntry(
            seq: 12_345, time: 3.25, app: "com.example.mail",
            body: .callback(
                selector: "applicationDidEnterBackground:", state: .background, args: [:], duration: 0))
        let retained = RetainedEntry(entry)
        var w = JSONWriter()
        EntryEncoder.write(entry, into: &w)
        #expect(retained.encoded.count * 2 < w.count, "\(retained.encoded.count) bytes against \(w.count)")
        #expect(retained.encoded.capacity < retained.encoded.count + 32)
    }

    @Test func bytesThatAreNotAnEntryAreRefused() throws {
        for entry in EntryDecoderTests.handMade {
            let encoded = RetainedEntry(entry).encoded
            for cut in 0..<encoded.count {
                #expect(throws: (any Error).self) {
                    try RetainedEntry(seq: 1, app: nil, session: nil, encoded: Array(encoded.prefix(cut)))
                }
            }
            #expect(throws: (any Error).self) {
                try RetainedEntry(seq: 1, app: nil, session: nil, encoded: encoded + [0])
            }
        }
        #expect(throws: (any Error).self) { try RetainedEntry(seq: 1, app: nil, session: nil, encoded: [0xFF]) }
    }
}
