import Foundation
import Testing

@testable import LifecycleStore

@Suite struct SnapshotTests {
    @Test func recoveryStartsFromTheNewestSnapshotAndReplaysOnlyLaterRecords() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Collected<UInt64>()
            for index in 0..<5 { journal.append(stream: "phone", record: [UInt8(index)]) { seqs.add(try! $0.get()) } }
            journal.flush()
            let s = seqs.values
            journal.saveSnapshot(stream: "phone", upTo: s[1], state: bytes("state after 2"))
            journal.saveSnapshot(stream: "phone", upTo: s[3], state: bytes("state after 4"))
            // An older snapshot arriving late must not replace the newer one.
            journal.saveSnapshot(stream: "phone", upTo: s[2], state: bytes("stale"))
            journal.close()

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(
                try reopened.recover() == [
                    RecoveredStream(
                        stream: "phone",
                        snapshot: StreamSnapshot(seq: s[3], state: bytes("state after 4")),
                        records: [JournalRecord(seq: s[4], bytes: [4])]
                    )
                ]
            )
        }
    }

    @Test func aSnapshotDeletesTheRecordsItCovers() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let last = Collected<UInt64>()
            for _ in 0..<100 { journal.append(stream: "phone", record: [1]) { last.add(try! $0.get()) } }
            journal.append(stream: "tablet", record: [2]) { _ in }
            journal.flush()
            let done = Collected<Result<Void, StoreError>>()
            journal.saveSnapshot(stream: "phone", upTo: last.values.last!, state: [9]) { done.add($0) }
            journal.flush()
            #expect(done.values.count == 1)
            #expect(try journal.storedRecordCount() == 1)
        }
    }

    @Test func aSnapshotAheadOfTheJournalIsRefused() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let done = Collected<Result<Void, StoreError>>()
            journal.saveSnapshot(stream: "phone", upTo: 10, state: [1]) { done.add($0) }
            guard case .failure(.snapshotAheadOfJournal(let stream, let upTo, let lastAppended)) = done.values.first
            else {
                Issue.record("snapshot ahead of the journal was accepted: \(done.values)")
                return
            }
            #expect(stream == "phone" && upTo == 10 && lastAppended == 0)
        }
    }

    @Test func deleteStreamSurvivesReopenAndLeavesOtherStreams() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Collected<UInt64>()
            journal.append(stream: "phone", record: [1]) { seqs.add(try! $0.get()) }
            journal.append(stream: "tablet", record: [2]) { seqs.add(try! $0.get()) }
            journal.flush()
            journal.saveSnapshot(stream: "phone", upTo: seqs.values[0], state: [3])
            let deleted = Collected<Result<Void, StoreError>>()
            journal.deleteStream("phone") { deleted.add($0) }
            journal.close()
            #expect(deleted.values.count == 1)

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(
                try reopened.recover() == [
                    RecoveredStream(
                        stream: "tablet", snapshot: nil, records: [JournalRecord(seq: seqs.values[1], bytes: [2])])
                ]
            )
        }
    }

    @Test func deleteAllSurvivesReopen() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            journal.append(stream: "phone", record: [1]) { _ in }
            journal.append(stream: "tablet", record: [2]) { _ in }
            journal.flush()
            journal.saveSnapshot(stream: "tablet", upTo: 2, state: [3])
            journal.deleteAll()
            journal.append(stream: "watch", record: [4]) { _ in }
            journal.close()

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(
                try reopened.recover() == [
                    RecoveredStream(stream: "watch", snapshot: nil, records: [JournalRecord(seq: 3, bytes: [4])])
                ]
            )
        }
    }
}
