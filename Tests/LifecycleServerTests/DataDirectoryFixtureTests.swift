import Foundation
import Testing

/// A data directory written by the first release (`Tests/Fixtures/data-dir-1`: records in the first
/// journal format, snapshots in the first snapshot format) opens in every later build and serves what
/// that release served: every member it answered, with the same value and in the same order of items;
/// members added since (scene fields, for one) may appear beside them.
@Suite struct DataDirectoryFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/data-dir-1").standardized

    /// Copies the fixture's database into `directory`, so the committed file is never written.
    static func copyFixture(to directory: String) throws {
        try FileManager.default.copyItem(
            at: fixture.appendingPathComponent("lifecycled.sqlite3"),
            to: URL(fileURLWithPath: directory).appendingPathComponent("lifecycled.sqlite3"))
    }

    @Test func theFirstReleasesDataDirectoryOpensAndServesTheSameAnswers() throws {
        let data = try Data(contentsOf: Self.fixture.appendingPathComponent("expected.json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(expected.count > 20)
        try withTemporaryDirectory { directory in
            try Self.copyFixture(to: directory)
            let server = try LiveServer(store: .sqlite(directory: directory))
            defer { server.stop() }
            for (path, answer) in expected.sorted(by: { $0.key < $1.key }) {
                let reply = try server.get(path)
                #expect(reply.status == answer["status"] as? Int, "\(path)")
                let body = try #require((answer["body"] as? String)?.data(using: .utf8))
                let old = try JSONSerialization.jsonObject(with: body)
                let new = try JSONSerialization.jsonObject(with: Data(reply.text.utf8))
                #expect(Self.contains(new, old), "\(path): \(reply.text) does not hold what the first release served")
            }
            // Idempotency keys come back from records (k5) and from snapshots (k1).
            let fromRecord = try server.postEvents(
                "/v1/apps/cal/events", #"{"type": "launch", "url": "cal://today"}"#,
                headers: [("Idempotency-Key", "k5")])
            #expect(fromRecord.header("Idempotent-Replayed") == "true")
            let fromSnapshot = try server.postEvents(
                "/v1/apps/mail/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#,
                headers: [("Idempotency-Key", "k1")])
            #expect(fromSnapshot.header("Idempotent-Replayed") == "true")
            // And the devices take new events.
            try server.postEvents("/v1/apps/cal/events", #"{"type": "homeButton"}"#)
        }
    }

    /// Whether `new` holds everything `old` does: the same scalars, arrays of the same length whose items
    /// hold the old items, objects with every old member (and maybe more).
    static func contains(_ new: Any, _ old: Any) -> Bool {
        switch (new, old) {
        case (let new as [String: Any], let old as [String: Any]):
            return old.allSatisfy { key, value in new[key].map { contains($0, value) } ?? false }
        case (let new as [Any], let old as [Any]):
            return new.count == old.count && zip(new, old).allSatisfy { contains($0, $1) }
        case (let new as NSNumber, let old as NSNumber):
            return new == old
        case (let new as String, let old as String):
            return new == old
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }
}
