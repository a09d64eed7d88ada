import LifecycleCore
import Testing

@testable import LifecycleHosting

/// A timeline's chunks of slots against a plain list of what it should retain: appends past its limit, evictions
/// for bytes in between, pages, and the slots it keeps for them.
@Suite struct EntryRingTests {
    static let stride = MemoryLayout<RetainedEntry>.stride

    static func entry(_ seq: UInt64, app: String = "a1") -> RetainedEntry {
        RetainedEntry(
            TimelineEntry(
                seq: seq, time: Double(seq), app: app,
                body: .callback(selector: "applicationDidBecomeActive:", state: .active, args: [:], duration: 0)))
    }

    /// Checks everything the ring says against `model`, the entries it should retain, oldest first.
    static func expectRing(_ ring: EntryRing, holds model: [UInt64], evictedThrough: UInt64) {
        #expect(ring.retained.map(\.seq) == model)
        #expect(ring.count == model.count)
        #expect(ring.oldestSeq == model.first)
        #expect(ring.newestSeq == model.last)
        #expect(ring.evictedThrough == evictedThrough)
        #expect(ring.bytes == model.count * entry(1).encodedCount)
        // What the budget is told is what is allocated; never much more than the limit's slots.
        #expect(ring.slotBytes == ring.recountedSlotBytes)
        #expect(ring.slotBytes <= (ring.limit + 3 * min(1024, max(16, ring.limit))) * stride + 1024)
    }

    @Test(arguments: [1, 2, 7, 100, 1000, 3000])
    func aRingKeepsTheNewestEntriesAcrossAppendsAndEvictions(limit: Int) {
        var ring = EntryRing(limit: limit)
        var model: [UInt64] = []
        var evictedThrough: UInt64 = 0
        var generator = SplitMix64(seed: UInt64(limit))
        var seq: UInt64 = 0
        for step in 0..<(limit * 6 + 50) {
            // Mostly appends; now and then a run of evictions, as a byte cap or the budget makes them.
            if generator.next() % 10 == 0 {
                for _ in 0..<(Int(generator.next() % UInt64(limit + 2))) {
                    let dropped = ring.evictOldest()
                    #expect(dropped?.seq == model.first)
                    if let first = model.first {
                        evictedThrough = first
                        model.removeFirst()
                    }
                }
            } else {
                seq += 1
                let dropped = ring.append(Self.entry(seq))
                model.append(seq)
                if model.count > limit {
                    #expect(dropped?.seq == model.first, "step \(step)")
                    evictedThrough = model.removeFirst()
                } else {
                    #expect(dropped == nil, "step \(step)")
                }
            }
            Self.expectRing(ring, holds: model, evictedThrough: evictedThrough)
            // A page from anywhere reads what the list holds after that seq.
            let after = seq > 0 ? generator.next() % (seq + 1) : 0
            #expect(
                ring.page(after: after, limit: 5) { _ in true }.map(\.seq)
                    == Array(model.filter { $0 > after }.prefix(5)))
        }
    }

    /// A full timeline holds at most about a chunk more than its limit, however many entries pass through it.
    @Test func aFullTimelineHoldsAtMostAChunkMoreThanItsLimit() {
        var ring = EntryRing(limit: 10_000)
        var most = 0
        for seq in 1...40_000 {
            ring.append(Self.entry(UInt64(seq)))
            most = max(most, ring.slotBytes)
        }
        #expect(ring.slotBytes == ring.recountedSlotBytes)
        #expect(most <= (10_000 + 2 * EntryRing.largestChunk) * Self.stride + 1024)
        #expect(ring.oldestSeq == 30_001)
        #expect(ring.newestSeq == 40_000)
    }

    /// Evictions give back every chunk they empty; an emptied timeline holds no slots.
    @Test func evictionsGiveBackTheChunksTheyEmpty() {
        var ring = EntryRing(limit: 10_000)
        for seq in 1...5000 { ring.append(Self.entry(UInt64(seq))) }
        #expect(ring.slotBytes >= 5000 * Self.stride)
        for _ in 0..<4000 { _ = ring.evictOldest() }
        #expect(ring.slotBytes <= 2 * EntryRing.largestChunk * Self.stride + 1024)
        #expect(ring.slotBytes == ring.recountedSlotBytes)
        #expect(ring.retained.map(\.seq) == Array(4001...5000).map(UInt64.init))
        while ring.evictOldest() != nil {}
        #expect(ring.slotBytes == 0)
        #expect(ring.evictedThrough == 5000)
        ring.append(Self.entry(5001))
        #expect(ring.retained.map(\.seq) == [5001])
    }

    /// The slots of a device's timelines, counted again from the timelines themselves.
    static func recounted(_ published: PublishedDevice) -> Int {
        published.appTimelines.values.reduce(published.deviceTimeline.recountedSlotBytes) { $0 + $1.recountedSlotBytes }
    }

    /// The budget counts a device's slots: evicting for bytes frees slots as well as entries, down to none.
    @Test func theBudgetCountsTheTimelinesSlots() throws {
        var published = PublishedDevice(
            device: try Device(id: "d", configuration: DeviceConfiguration()), historyLimit: 1000,
            historyBytes: 1 << 30, anchor: WallAnchor(clock: ManualHostClock(now: 0), wall: 0),
            recording: InputRecording())
        let entries = (1...600).map { Self.entry(UInt64($0), app: $0 % 2 == 0 ? "a1" : "a2") }
        _ = published.install(published.device, changedApps: [], entries: entries)
        #expect(published.slotBytes >= (600 + 2 * 300) * Self.stride)
        #expect(published.slotBytes == Self.recounted(published))
        let held = published.heldBytes
        _ = published.evict(bytes: held / 2)
        #expect(published.heldBytes <= held / 2 + 1)
        #expect(published.slotBytes == Self.recounted(published))
        _ = published.evict(bytes: held)
        #expect(published.retainedBytes == 0)
        #expect(published.slotBytes == 0)
    }
}
