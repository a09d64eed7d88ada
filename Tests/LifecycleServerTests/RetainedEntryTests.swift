import LifecycleCore
@testable import LifecycleHosting
import LifecycleJSON
@testable import LifecycleWire
import LifecyclePersistence
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

    /// Readers copy a change's entries from its answer while they are the latest (`ServedEntries`) and render
    /// them from the compact form after: both must be the same bytes.
    @Test func everyKindRendersAsItsAnswerServedIt() {
        for entry in EntryDecoderTests.handMade {
            var served = JSONWriter(), rendered = JSONWriter()
            EntryEncoder.write(entry, into: &served)
            if let retained = RetainedEntry(entry).entry { EntryEncoder.write(retained, into: &rendered) }
            #expect(served.bytes == rendered.bytes, "\(entry)")
        }
    }

    /// A callback as devices record them most: under half the bytes of its JSON; a timeline's slot holds its
    /// seq, its time and a reference to the rest.
    @Test func aCallbackTakesFewerBytesThanItsJSON() throws {
        let entry = TimelineEntry(
            seq: 12_345, time: 3.25, app: "com.example.mail",
            body: .callback(
                selector: "applicationDidEnterBackground:", state: .background, args: [:], duration: 0))
        let retained = RetainedEntry(entry)
        var w = JSONWriter()
        EntryEncoder.write(entry, into: &w)
        #expect(retained.encoded.count * 2 < w.count, "\(retained.encoded.count) bytes against \(w.count)")
        #expect(retained.encodedCount == retained.encoded.count)
        #expect(MemoryLayout<RetainedEntry>.size == 2 * MemoryLayout<UInt64>.size + MemoryLayout<UnsafeRawPointer>.size)
    }

    /// The app and the session read back as given: absent apart from empty, long, and not ASCII.
    @Test func appAndSessionReadBackAsGiven() throws {
        let long = String(repeating: "ü", count: 300)
        for (app, session) in [(nil, nil), ("", nil), (nil, ""), ("", ""), ("a1", "s1"), (long, "s\(long)")]
            as [(String?, String?)]
        {
            let entry = TimelineEntry(
                seq: 7, time: 1, app: app, body: .state(from: .notRunning, to: .active), session: session)
            let retained = RetainedEntry(entry)
            #expect(
                retained.app == app && retained.session == session,
                "\(String(describing: app)) \(String(describing: session))")
            #expect(retained.entry == entry)
            // Told by their bytes: the same text only, and never when there is none.
            for other in ["", "s1", "a1", "s2", long] as [String] {
                #expect(retained.isIn(session: other) == (session == other), "\(other)")
                #expect(retained.isAbout(app: other) == (app == other), "\(other)")
            }
        }
    }

    /// A termination as the first layout stored it (no flag of whether it was in front; a code for a few reasons
    /// only) reads back, and renders with the code, signal and category its reason decides (LIFECYCLE §9.1).
    @Test func aTerminationOfTheFirstLayoutGetsItsFacts() throws {
        var w = ByteWriter()
        w.byte(EntryCoding.Kind.termination.rawValue)
        w.double(12)
        w.string("forceQuit")
        w.byte(0)  // not notified
        w.byte(0)  // no code: a force quit had none then
        let entry = try #require(try RetainedEntry(seq: 9, app: "a1", session: nil, encoded: w.bytes).entry)
        #expect(entry.body == .termination(reason: .forceQuit, notified: false, foreground: nil))
        var json = JSONWriter()
        EntryEncoder.write(entry, into: &json)
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text.contains(#""code":"0xdeadfa11","signal":"SIGKILL","category":"normal""#), "\(text)")
        #expect(!text.contains("foreground"))
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

    /// A timeline hands an entry the body of an equal one among its newest: the entries share one allocation
    /// and each still reads back as itself (its own seq and time).
    @Test func anEqualEntryTakesTheBodyOfOneTheTimelineHolds() throws {
        func entry(
            _ seq: UInt64, _ time: Double, app: String? = "a1", session: String? = nil, state: AppState = .background
        ) -> TimelineEntry {
            TimelineEntry(
                seq: seq, time: time, app: app,
                body: .callback(selector: "applicationDidEnterBackground:", state: state, args: [:], duration: 0),
                session: session)
        }
        var ring = EntryRing(limit: 100)
        let first = RetainedEntry(entry(1, 1.5))
        ring.append(ring.sharing(first))
        let again = ring.sharing(RetainedEntry(entry(2, 9.25)))
        #expect(again.sharesBody(with: first))
        #expect(again.entry == entry(2, 9.25))
        ring.append(again)
        #expect(ring.retained.map(\.entry) == [entry(1, 1.5), entry(2, 9.25)])
        // Anything else that differs keeps a body of its own.
        for other in [
            entry(3, 1.5, app: "a2"), entry(3, 1.5, app: nil), entry(3, 1.5, session: "s1"),
            entry(3, 1.5, state: .active),
        ] {
            let kept = ring.sharing(RetainedEntry(other))
            #expect(!kept.sharesBody(with: first), "\(other)")
            #expect(kept.entry == other)
        }
        // Only the newest entries are looked at.
        for seq in 3..<(3 + UInt64(EntryRing.sharingWindow)) {
            ring.append(RetainedEntry(entry(seq, 2, app: "a\(seq)")))
        }
        #expect(!ring.sharing(RetainedEntry(entry(99, 3))).sharesBody(with: first))
    }

    /// The newest entries are looked at across a chunk's end: a timeline of 16 slots a chunk whose oldest entries
    /// were evicted holds its newest 16 in two chunks, and an equal entry in the older one is found.
    @Test func anEqualEntryIsFoundInTheChunkBeforeTheNewest() throws {
        func entry(_ seq: UInt64, app: String) -> TimelineEntry {
            TimelineEntry(
                seq: seq, time: 1, app: app,
                body: .callback(selector: "applicationDidBecomeActive:", state: .active, args: [:], duration: 0))
        }
        var ring = EntryRing(limit: 16)
        var seq: UInt64 = 0
        func filler() -> RetainedEntry {
            seq += 1
            return RetainedEntry(entry(seq, app: "filler\(seq)"))
        }
        for _ in 0..<8 { ring.append(filler()) }
        seq += 1
        let held = RetainedEntry(entry(seq, app: "held"))
        ring.append(held)
        for _ in 0..<11 { ring.append(filler()) }
        #expect(ring.count == 16)
        #expect(ring.retained.map(\.entry?.app) == (5...20).map { $0 == 9 ? "held" : "filler\($0)" })
        #expect(ring.sharing(RetainedEntry(entry(99, app: "held"))).sharesBody(with: held))
        #expect(ring.sharing(RetainedEntry(entry(99, app: "filler20"))).sharesBody(with: ring.retained[15]))
        // The evicted ones are not looked at.
        #expect(!ring.sharing(RetainedEntry(entry(99, app: "filler1"))).sharesBody(with: ring.retained[0]))
    }
}
