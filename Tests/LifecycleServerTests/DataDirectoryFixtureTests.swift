import Foundation
import LifecycleStore
import LifecycleTesting
import TestSupport
import Testing

/// Data directories written by earlier releases open in every later build and serve what those releases
/// served: every member they answered, with the same value and in the same order of items; members added
/// since (scene fields, for one) may appear beside them.
/// - `Tests/Fixtures/data-dir-1`: the first release (journal records and snapshots in their first formats);
/// - `Tests/Fixtures/data-dir-2`: journal records and snapshots of version 2, with namespaces and scenes;
/// - `Tests/Fixtures/data-dir-3`: the same requests, with snapshots of version 3 (keys scoped by app);
/// - `Tests/Fixtures/data-dir-4`: the same requests, with snapshots of version 4 (entries as the core's values).
/// `data-dir-1/make-fixture.sh` and `make-data-dir.py` say how they were made; a fixture is never regenerated.
@Suite struct DataDirectoryFixtureTests {
    /// A committed data directory, and the idempotency keys it must still answer by replaying: one whose
    /// first answer comes back from a journal record, one from a snapshot.
    struct Fixture: Sendable, CustomTestStringConvertible {
        let name: String
        /// The version of the snapshots it holds (the byte after `LCSN`).
        let snapshotVersion: UInt8
        let replays: [(path: String, body: String, key: String)]
        var testDescription: String { name }

        var folder: URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../Fixtures/\(name)").standardized
        }
    }

    static let fixtures =
        [
            Fixture(
                name: "data-dir-1", snapshotVersion: 1,
                replays: [
                    ("/v1/apps/cal/events", #"{"type": "launch", "url": "cal://today"}"#, "k5"),
                    ("/v1/apps/mail/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#, "k1"),
                ])
        ]
        + [("data-dir-2", 2), ("data-dir-3", 3), ("data-dir-4", 4)].map { name, version in
            Fixture(
                name: name, snapshotVersion: version,
                replays: [
                    ("/v1/apps/cal/events", #"{"type": "launch", "url": "cal://today"}"#, "k5"),
                    ("/v1/apps/mail/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#, "k1"),
                    (
                        "/v1/namespaces/team/apps/shop/events",
                        #"[{"type": "launch"}, {"type": "homeButton"}, {"type": "activate"}]"#, "t-k1"
                    ),
                ])
        }

    /// Members whose value depends on when the fixture is read (a namespace's `lastUsedAt` moves with use).
    static let moving: Set<String> = ["lastUsedAt"]

    /// The fixture's database files (the snapshots' file exists from schema 2 on).
    static func files(of fixture: Fixture) -> [String] {
        SQLiteJournal.databaseFileNames.filter {
            FileManager.default.fileExists(atPath: fixture.folder.appendingPathComponent($0).path)
        }
    }

    /// Copies the fixture's database files into `directory`, so the committed files are never written.
    static func copy(_ fixture: Fixture, to directory: String) throws {
        for name in files(of: fixture) {
            try FileManager.default.copyItem(
                at: fixture.folder.appendingPathComponent(name),
                to: URL(fileURLWithPath: directory).appendingPathComponent(name))
        }
    }

    /// Each fixture holds snapshots of the version it stands for (SQLite keeps blobs this small in its pages).
    @Test(arguments: fixtures)
    func eachFixtureHoldsSnapshotsOfItsVersion(_ fixture: Fixture) throws {
        let file = try Self.files(of: fixture).reduce(into: Data()) {
            $0 += try Data(contentsOf: fixture.folder.appendingPathComponent($1))
        }
        for version: UInt8 in 1...4 {
            let holds = file.range(of: Data("LCSN".utf8 + [version])) != nil
            #expect(holds == (version == fixture.snapshotVersion), "version \(version) in \(fixture.name)")
        }
    }

    @Test(arguments: fixtures)
    func anEarlierReleasesDataDirectoryOpensAndServesTheSameAnswers(_ fixture: Fixture) throws {
        let data = try Data(contentsOf: fixture.folder.appendingPathComponent("expected.json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(expected.count > 20)
        try withTemporaryDirectory { directory in
            try Self.copy(fixture, to: directory)
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            for (path, answer) in expected.sorted(by: { $0.key < $1.key }) {
                let reply = try server.get(path)
                #expect(reply.status == answer["status"] as? Int, "\(path)")
                let body = try #require((answer["body"] as? String)?.data(using: .utf8))
                let old = try JSONSerialization.jsonObject(with: body)
                let new = try JSONSerialization.jsonObject(with: Data(reply.text.utf8))
                #expect(Self.contains(new, old), "\(path): \(reply.text) does not hold what was served")
            }
            // Idempotency keys come back from records and from snapshots.
            for replay in fixture.replays {
                let reply = try server.postEvents(replay.path, replay.body, headers: [("Idempotency-Key", replay.key)])
                #expect(reply.header("Idempotent-Replayed") == "true", "\(replay.key) on \(replay.path)")
            }
            // And the devices take new events.
            try server.postEvents("/v1/apps/cal/events", #"{"type": "homeButton"}"#)
        }
    }

    /// Whether `new` holds everything `old` does: the same scalars, arrays of the same length whose items
    /// hold the old items, objects with every old member (and maybe more).
    static func contains(_ new: Any, _ old: Any) -> Bool {
        switch (new, old) {
        case (let new as [String: Any], let old as [String: Any]):
            return old.allSatisfy { key, value in
                moving.contains(key) || (new[key].map { contains($0, value) } ?? false)
            }
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
