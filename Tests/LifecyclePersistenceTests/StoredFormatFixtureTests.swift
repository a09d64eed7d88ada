import Foundation
import LifecycleCore
import LifecyclePersistence
import Testing

/// Every stored format, every version: the bytes in `Tests/Fixtures/formats` (a folder per format and version) were written by the builds
/// of their time (the snapshots and journal records are those of the `Tests/Fixtures/data-dir-1` to `-4` fixtures, taken out of their
/// SQLite files), and each still reads. A new version needs its folder, or the first test fails.
@Suite struct StoredFormatFixtureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/formats").standardized

    static func folder(_ format: StoredFormat, _ version: Int) -> URL {
        root.appendingPathComponent("\(format.rawValue)-v\(version)")
    }

    /// The fixtures of one version of one format, by file name.
    static func fixtures(_ format: StoredFormat, _ version: Int) throws -> [(name: String, bytes: [UInt8])] {
        let folder = folder(format, version)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return try names.sorted().map { name in
            (name, Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }

    @Test(arguments: StoredFormat.allCases)
    func everyVersionHasFixturesAndEachReads(_ format: StoredFormat) throws {
        for version in 1...format.current {
            let fixtures = try Self.fixtures(format, version)
            #expect(!fixtures.isEmpty, "no fixture of \(format.rawValue) version \(version) in \(Self.root.path)")
            for fixture in fixtures {
                #expect(throws: Never.self, "\(format.rawValue)-v\(version)/\(fixture.name)") {
                    try format.read(fixture.bytes)
                }
            }
        }
    }

    /// No folder stands for a format or a version the build does not read (a fixture nobody checks).
    @Test func everyFixtureFolderIsAVersionThatIsRead() throws {
        let expected = Set(
            StoredFormat.allCases.flatMap { format in (1...format.current).map { "\(format.rawValue)-v\($0)" } })
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root.path))
        #expect(present == expected)
    }

    /// A newer version than the build writes is refused by name, never read as something else.
    @Test func aNewerVersionIsRefusedByName() throws {
        #expect(throws: JournalRecordFormat.UnknownVersion.self) {
            try StoredFormat.journalRecord.read(Array(#"{"v":3,"entry":{}}"#.utf8))
        }
        #expect(throws: StoredSnapshot.UnknownVersion.self) {
            try StoredFormat.snapshot.read(Array("LCSN".utf8) + [StoredSnapshot.version + 1, 0, 0, 0, 0])
        }
        #expect(throws: CorruptRecord.self) {
            try StoredFormat.namespaceSettings.read(Array(#"{"v":2,"createdAt":1,"lastUsedAt":1}"#.utf8))
        }
        #expect(throws: CorruptRecord.self) {
            try StoredFormat.importMarker.read(Array(#"{"v":2,"namespace":"a","newNamespace":true,"streams":[]}"#.utf8))
        }
    }

    /// The records of the versions written now are written again byte for byte: a change to how they are written
    /// is a new version (and a new fixture), never a silent one.
    @Test func theNewestVersionsAreWrittenAsTheirFixtures() throws {
        // `earlier-build-*`: written in this version by a build before a compatible change to what it writes.
        for fixture in try Self.fixtures(.journalRecord, JournalRecordFormat.current)
        where !fixture.name.hasPrefix("earlier-build-") {
            let bytes = try JournaledInput(bytes: fixture.bytes).bytes
            #expect(
                String(decoding: bytes, as: UTF8.self) == String(decoding: fixture.bytes, as: UTF8.self),
                "\(fixture.name)")
        }
        for fixture in try Self.fixtures(.namespaceSettings, NamespaceSettings.version) {
            #expect(try NamespaceSettings(record: fixture.bytes).record == fixture.bytes, "\(fixture.name)")
        }
        for fixture in try Self.fixtures(.importMarker, ImportMarker.version) {
            #expect(try ImportMarker(record: fixture.bytes).record == fixture.bytes, "\(fixture.name)")
        }
    }

    /// What a snapshot holds, its entries decoded, but the wall-clock time it was made at: equal summaries are
    /// equal devices to a reader.
    struct Summary: Equatable {
        var device: String
        var timelines: [String]
        var entries: [TimelineEntry]
        var appTimelines: [Int?]
        var answers: [String]
        var recording: [[UInt8]]?
    }

    static func summary(_ snapshot: StoredSnapshot) throws -> Summary {
        Summary(
            device: snapshot.device.id,
            timelines: ["device \(snapshot.deviceTimeline)"] + snapshot.apps.map { "\($0.id) \($0.timeline)" },
            entries: try snapshot.entries.map { entry in
                try EntryCoding.decode(entry.encoded, seq: entry.seq, app: entry.app, session: entry.session)
            },
            appTimelines: snapshot.entries.map(\.appTimeline),
            answers: snapshot.answers.map { "\(String(describing: $0.app)) \($0.key) \($0.fingerprint)" },
            recording: snapshot.recording)
    }

    /// A snapshot of any version, written again in the newest, reads back the same.
    @Test(arguments: 1...Int(StoredSnapshot.version))
    func aSnapshotOfEveryVersionIsWrittenAgainInTheNewest(_ version: Int) throws {
        for fixture in try Self.fixtures(.snapshot, version) {
            let read = try StoredSnapshot(bytes: fixture.bytes)
            #expect(!read.entries.isEmpty, "a snapshot with no entry checks little")
            let again = try read.encoded()
            #expect(again[4] == StoredSnapshot.version)
            let reread = try StoredSnapshot(bytes: again)
            #expect(try Self.summary(reread) == Self.summary(read), "snapshot-v\(version)/\(fixture.name)")
            #expect(reread.device == read.device)
            #expect(reread.anchorWall == read.anchorWall)
        }
    }

    /// Versions 2, 3 and 4 of the snapshot were written from the same requests (`Tests/Fixtures/data-dir-requests.txt`):
    /// whatever the version, the same device, entries and idempotency keys read from them.
    @Test func snapshotsOfTheSameRequestsReadTheSameInEveryVersion() throws {
        let summaries = try (2...4).map { version in
            try Self.summary(StoredSnapshot(bytes: #require(Self.fixtures(.snapshot, version).first).bytes))
        }
        #expect(summaries[0] == summaries[1])
        #expect(summaries[1] == summaries[2])
    }

    /// A key that earlier builds scoped to its request's path (in version 1 records, and in version 2 records
    /// before keys were the app's) reads as the client's key.
    @Test(arguments: [(1, "events-with-key.json"), (2, "earlier-build-events-with-path-scoped-key.json")])
    func aPathScopedKeyReadsAsTheClientsKey(_ version: Int, _ name: String) throws {
        let record = try #require(Self.fixtures(.journalRecord, version).first { $0.name == name })
        #expect(String(decoding: record.bytes, as: UTF8.self).contains(#"/events\nk5""#))
        guard case .events(let app, _, _, let key, _) = try JournaledInput(bytes: record.bytes) else {
            Issue.record("not an events record")
            return
        }
        #expect(key == "k5")
        #expect(app == "cal")
    }
}
