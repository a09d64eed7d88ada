import Dispatch
import Foundation
import TestSupport
import Locking
import Testing

@testable import LifecycleStore

/// Snapshots are written to a store of their own before the journal names them: a snapshot being written
/// holds no append, and bytes no journal row names do not stay.
@Suite struct SnapshotStoreTests {
    /// Holds the snapshot store's thread before its next write until `release()`.
    final class Gate: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let opened = DispatchSemaphore(value: 0)

        func hold(_ journal: SQLiteJournal) {
            journal.snapshots.beforeWrite = { [self] in
                entered.signal()
                opened.wait()
            }
        }

        func release(_ journal: SQLiteJournal) {
            journal.snapshots.beforeWrite = nil
            opened.signal()
        }
    }

    static func storedSnapshots(in directory: TemporaryDirectory) throws -> Int64 {
        let path = URL(fileURLWithPath: directory.path).appendingPathComponent(SnapshotStore.fileName).path
        let connection = try SQLiteConnection(path: path, readOnly: true)
        defer { connection.close() }
        return try connection.integer("SELECT count(*) FROM snapshot_state")
    }

    @Test func appendsBecomeDurableWhileASnapshotIsBeingWritten() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let seqs = Protected<[UInt64]>([])
            for index in 0..<3 {
                journal.append(stream: "phone", record: [UInt8(index)]) { seqs.append(try! $0.get()) }
            }
            journal.flush()
            let gate = Gate()
            gate.hold(journal)
            let named = Protected<[Result<Void, StoreError>]>([])
            journal.saveSnapshot(stream: "phone", upTo: seqs.get()[2], state: bytes("after 3")) { named.append($0) }
            #expect(gate.entered.wait(timeout: .now() + 30) == .success)

            // The snapshot's write is held; appends still commit.
            let durable = DispatchSemaphore(value: 0)
            for index in 3..<6 {
                journal.append(stream: "phone", record: [UInt8(index)]) {
                    seqs.append(try! $0.get())
                    durable.signal()
                }
            }
            for _ in 0..<3 { #expect(durable.wait(timeout: .now() + 30) == .success) }
            #expect(named.get().isEmpty)

            gate.release(journal)
            journal.flush()
            #expect(named.get().count == 1)
            #expect(named.get().allSatisfy { (try? $0.get()) != nil })
            let s = seqs.get()
            #expect(
                try journal.recover() == [
                    RecoveredStream(
                        stream: "phone", snapshot: StreamSnapshot(seq: s[2], state: bytes("after 3")),
                        records: (3..<6).map { JournalRecord(seq: s[$0], bytes: [UInt8($0)]) })
                ])
            #expect(try journal.storedRecordCount() == 3)
        }
    }

    @Test func aStreamDeletedWhileItsSnapshotIsWrittenGetsNoSnapshotAndItsBytesGo() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seq = Protected<UInt64>(0)
            journal.append(stream: "phone", record: [1], startsStream: true) { seq.set(try! $0.get()) }
            journal.flush()
            let gate = Gate()
            gate.hold(journal)
            let named = Protected<[Result<Void, StoreError>]>([])
            journal.saveSnapshot(stream: "phone", upTo: seq.get(), state: [9]) { named.append($0) }
            #expect(gate.entered.wait(timeout: .now() + 30) == .success)
            journal.deleteStream("phone")
            gate.release(journal)
            journal.close()
            #expect(named.get().map(StreamDeletionTests.error) == [.streamDeleted(stream: "phone")])
            // Written, never named, and deleted before the journal closed.
            #expect(try Self.storedSnapshots(in: directory) == 0)

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(try reopened.recover() == [])
        }
    }

    @Test func aReplacedSnapshotsBytesAreDeletedAndTheNamedOnesStay() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Protected<[UInt64]>([])
            for index in 0..<4 {
                journal.append(stream: "phone", record: [UInt8(index)]) { seqs.append(try! $0.get()) }
            }
            journal.append(stream: "tablet", record: [7]) { seqs.append(try! $0.get()) }
            journal.flush()
            let s = seqs.get()
            journal.saveSnapshot(stream: "phone", upTo: s[1], state: bytes("after 2"))
            journal.flush()
            journal.saveSnapshot(stream: "phone", upTo: s[3], state: bytes("after 4"))
            journal.flush()
            journal.saveSnapshot(stream: "tablet", upTo: s[4], state: bytes("tablet"))
            journal.close()
            // Two named, the replaced one deleted.
            #expect(try Self.storedSnapshots(in: directory) == 2)

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(
                try reopened.recover() == [
                    RecoveredStream(
                        stream: "phone", snapshot: StreamSnapshot(seq: s[3], state: bytes("after 4")), records: []),
                    RecoveredStream(
                        stream: "tablet", snapshot: StreamSnapshot(seq: s[4], state: bytes("tablet")), records: []),
                ])
        }
    }

    @Test func snapshotsNoJournalRowNamesAreDeletedWhenTheStoreOpens() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seq = Protected<UInt64>(0)
            journal.append(stream: "phone", record: [1]) { seq.set(try! $0.get()) }
            journal.flush()
            journal.saveSnapshot(stream: "phone", upTo: seq.get(), state: bytes("named"))
            journal.close()
            // What a stop between a snapshot's commit and its naming leaves behind.
            let path = URL(fileURLWithPath: directory.path).appendingPathComponent(SnapshotStore.fileName).path
            let connection = try SQLiteConnection(path: path, readOnly: false)
            try connection.execute(
                "INSERT INTO snapshot_state(state) VALUES (x'0102'), (x'0304')", operation: "orphans")
            connection.close()
            #expect(try Self.storedSnapshots(in: directory) == 3)

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            #expect(try Self.storedSnapshots(in: directory) == 1)
            #expect(
                try reopened.recover() == [
                    RecoveredStream(
                        stream: "phone", snapshot: StreamSnapshot(seq: seq.get(), state: bytes("named")), records: [])
                ])
            reopened.close()
        }
    }

    @Test func ofSnapshotsOfAStreamWaitingTogetherOnlyTheNewestIsWrittenAndEachCompletes() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Protected<[UInt64]>([])
            for index in 0..<3 {
                journal.append(stream: "phone", record: [UInt8(index)]) { seqs.append(try! $0.get()) }
            }
            journal.flush()
            let s = seqs.get()
            let gate = Gate()
            gate.hold(journal)
            let done = Protected<[String]>([])
            journal.saveSnapshot(stream: "phone", upTo: s[0], state: bytes("a")) { _ in done.append("a") }
            #expect(gate.entered.wait(timeout: .now() + 30) == .success)
            // While "a" is being written, three more wait: "c" replaces "b", and "d", older, does not replace "c".
            journal.saveSnapshot(stream: "phone", upTo: s[1], state: bytes("b")) { _ in done.append("b") }
            journal.saveSnapshot(stream: "phone", upTo: s[2], state: bytes("c")) { _ in done.append("c") }
            journal.saveSnapshot(stream: "phone", upTo: s[0], state: bytes("d")) { _ in done.append("d") }
            gate.release(journal)
            journal.flush()
            #expect(done.get() == ["a", "b", "c", "d"])
            #expect(
                try journal.recover() == [
                    RecoveredStream(
                        stream: "phone", snapshot: StreamSnapshot(seq: s[2], state: bytes("c")), records: [])
                ])
            journal.close()
            // Two written ("a" and "c"), and "a" deleted once "c" was named.
            let path = URL(fileURLWithPath: directory.path).appendingPathComponent(SnapshotStore.fileName).path
            let connection = try SQLiteConnection(path: path, readOnly: true)
            defer { connection.close() }
            #expect(try connection.integer("SELECT seq FROM sqlite_sequence WHERE name = 'snapshot_state'") == 2)
            #expect(try Self.storedSnapshots(in: directory) == 1)
        }
    }

    @Test func aSnapshotSubmittedOnceTheStoreStopsFailsAsClosed() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            let path = URL(fileURLWithPath: directory.path).appendingPathComponent(SnapshotStore.fileName).path
            let store = try SnapshotStore(path: path, named: [], logger: testLogger)
            let handed = Protected<[Int64]>([])
            store.start { written in handed.append(written.id) }
            store.submit(stream: "phone", upTo: 1, state: [1], durable: nil)
            store.flush()
            store.stop()
            let late = Protected<[Result<Void, StoreError>]>([])
            store.submit(stream: "phone", upTo: 2, state: [2]) { late.append($0) }
            #expect(handed.get().count == 1)
            #expect(late.get().map(StreamDeletionTests.error) == [.closed])
        }
    }

    @Test func aSchemaOneDatabaseIsUpgradedAndItsSnapshotsStillRead() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            let connection = try SQLiteConnection(path: directory.databasePath, readOnly: false)
            try connection.execute(StoreSchema.createVersion1, operation: "schema 1")
            try connection.execute(
                """
                INSERT INTO stream(id, name) VALUES (1, 'phone');
                INSERT INTO snapshot(stream_id, seq, state) VALUES (1, 2, x'0a0b');
                INSERT INTO journal(seq, stream_id, record) VALUES (3, 1, x'03');
                UPDATE store_meta SET value = 3 WHERE key = 'last_seq';
                """, operation: "rows of schema 1")
            connection.close()

            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let expected = RecoveredStream(
                stream: "phone", snapshot: StreamSnapshot(seq: 2, state: [0x0a, 0x0b]),
                records: [JournalRecord(seq: 3, bytes: [3])])
            #expect(try journal.recover() == [expected])
            let check = try SQLiteConnection(path: directory.databasePath, readOnly: true)
            defer { check.close() }
            #expect(try check.integer("PRAGMA user_version") == StoreSchema.version)
        }
    }
}
