import Foundation
import LifecycleCore
@testable import LifecycleHosting
import LifecycleTesting
import Locking
import TestSupport
import Testing

@testable import LifecycleServer

/// A change's entries are rendered once, in its answer: readers of the timeline (pages, woken long polls, event
/// streams) copy them from there (`ServedEntries`) while they are the device's latest, and render them from the
/// compact form after. Both must be the same bytes.
@Suite struct ServedEntriesTests {
    /// The text of `body` between `open` and the next `close`.
    private func between(_ body: [UInt8], _ open: String, _ close: String) throws -> String {
        let text = String(decoding: body, as: UTF8.self)
        let start = try #require(text.range(of: open)).upperBound
        let end = try #require(text.range(of: close, range: start..<text.endIndex)).lowerBound
        return String(text[start..<end])
    }

    private func items(_ server: TestDaemon, _ path: String, after: Int) throws -> String {
        let page = try server.get("\(path)?after=\(after)&limit=1000")
        try #require(page.status == 200, "\(page.text)")
        return try between(page.body, #""items":["#, #"],"next""#)
    }

    @Test func readersGetTheAnswersBytesThenTheSameRenderedFromTheTimeline() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "17.0"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
            try server.createApp(#"{"id": "b", "device": "d", "bundleId": "com.example.b"}"#)
            let before = try #require(server.get("/v1/devices/d/timeline?after=0&limit=1000").int("next"))
            let host = try #require(server.service.registry.device("d"))
            // No reader follows the change: nothing is held.
            try server.postEvents("/v1/apps/b/events", #"{"type": "launch"}"#)
            #expect(host.shared.withLock { !$0.served.withServed(UInt64(before + 1)) { _ in } })
            let waiting = try #require(server.get("/v1/devices/d/timeline?after=0&limit=1000").int("next"))
            // A long poll waits on the device's timeline; the change wakes it.
            let poll = Background { try server.get("/v1/devices/d/timeline?after=\(waiting)&limit=1000&wait=20") }
            server.waitUntilParked(1)
            // Entries with arguments, escapes and text outside ASCII.
            let answer = try server.postEvents(
                "/v1/apps/a/events",
                #"[{"type": "launch", "url": "app://x?q=\"é\"\n"}, {"type": "memoryWarning"}, {"type": "homeButton"}]"#)
            let entries = try between(answer.body, #""entries":["#, #"],"changed""#)
            #expect(entries.count > 200)
            let seqs = try #require((answer.json as? [String: Any])?["entries"] as? [[String: Any]]).compactMap {
                $0["seq"] as? Int
            }
            #expect(seqs.count > 3)
            let woken = try poll.join()
            try #require(woken.status == 200)
            #expect(try between(woken.body, #""items":["#, #"],"next""#) == entries)
            // Held as the latest change: a page copies them too.
            #expect(
                host.shared.withLock { shared in seqs.allSatisfy { shared.served.withServed(UInt64($0)) { _ in } } })
            let copied = try items(server, "/v1/devices/d/timeline", after: waiting)
            #expect(copied == entries)
            // The app's timeline holds its own entries of the change, each copied as well.
            let appCopied = try items(server, "/v1/apps/a/timeline", after: waiting)
            let all = try #require(
                try JSONSerialization.jsonObject(with: Data("[\(entries)]".utf8)) as? [[String: Any]])
            let own = try #require(
                try JSONSerialization.jsonObject(with: Data("[\(appCopied)]".utf8)) as? [[String: Any]])
            #expect(own.count > 3 && own.count < all.count)
            #expect(canonical(own) == canonical(all.filter { $0["app"] as? String == "a" }))

            try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
            #expect(
                host.shared.withLock { shared in seqs.allSatisfy { !shared.served.withServed(UInt64($0)) { _ in } } })
            let rendered = try items(server, "/v1/devices/d/timeline", after: waiting)
            #expect(rendered.hasPrefix(entries + ","))
        }
    }

    private func entries(_ seqs: [UInt64]) -> [TimelineEntry] {
        seqs.map { TimelineEntry(seq: $0, time: 0, app: nil, body: .state(from: .notRunning, to: .active)) }
    }

    @Test func anEntryIsLentFromItsRangeWhileSeqsFollowOneAnother() {
        let body = Array(#"{"entries":[{"a":1},{"b":"é"}],"changed":true}"#.utf8)
        let answer = RenderedAnswer(body: body, entries: [12..<19, 20..<30])
        let served = ServedEntries(answer, of: entries([5, 6]))
        func text(_ seq: UInt64) -> String? {
            var text: String?
            return served.withServed(seq, { text = String(decoding: $0, as: UTF8.self) }) ? text : nil
        }
        #expect(text(5) == #"{"a":1}"#)
        #expect(text(6) == #"{"b":"é"}"#)
        #expect(text(4) == nil && text(7) == nil)
        // Not kept: seqs that skip, counts that differ, an answer too large to hold.
        for kept in [
            ServedEntries(answer, of: entries([5, 7])), ServedEntries(answer, of: entries([5])),
            ServedEntries(answer, of: []),
            ServedEntries(
                RenderedAnswer(
                    body: body + Array(repeating: 0x20, count: ServedEntries.maxHeldBytes), entries: [12..<19]),
                of: entries([1])),
        ] {
            #expect(!kept.withServed(5) { _ in } && !kept.withServed(1) { _ in })
        }
    }
}
