import Foundation
import LifecycleCore
@testable import LifecycleHosting
@testable import LifecycleJSON
@testable import LifecycleWire
import Testing

@testable import LifecycleServer

/// Entries are encoded once, through one buffer, each into an array of its own size.
@Suite struct RenderedEntryTests {
    @Test func eachEntryHoldsItsOwnJSONAndNoMoreRoomThanItNeeds() throws {
        var entries: [TimelineEntry] = []
        for seq in 1...20 {
            let body: TimelineEntry.Body =
                seq % 2 == 0
                ? .callback(
                    selector: "application:didFinishLaunchingWithOptions:", state: .inactive,
                    args: ["n": .number(Double(seq))], duration: 0)
                : .state(from: .notRunning, to: .inactive)
            let app: String? = seq % 3 == 0 ? nil : "a\(seq)"
            entries.append(TimelineEntry(seq: UInt64(seq), time: Double(seq) / 4, app: app, body: body))
        }
        let stored = WireRendering().render(entries)
        #expect(stored.map(\.seq) == entries.map(\.seq))
        for (entry, stored) in zip(entries, stored) {
            var w = JSONWriter()
            EntryEncoder.write(entry, into: &w)
            #expect(stored.json == w.bytes)
            #expect(stored.app == entry.app)
            let object = try JSONSerialization.jsonObject(with: Data(stored.json)) as? [String: Any]
            #expect(object?["seq"] as? Int == Int(entry.seq))
            // Room for the JSON and malloc's rounding, not the writer's buffer.
            #expect(stored.json.capacity < stored.json.count + 32, "\(stored.json.count) in \(stored.json.capacity)")
        }
    }
}
