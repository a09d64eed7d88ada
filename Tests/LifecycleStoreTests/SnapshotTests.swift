import Foundation
import TestSupport
import Locking
import Testing

@testable import LifecycleStore

@Suite struct SnapshotTests {
    @Test func recoveryStartsFromTheNewestSnapshotAndReplaysOnlyLaterRecords() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Protected<[UInt64]>([])
            for index in 0..<5 {
                journal.append(stream: "phone", record: [UInt8(index)]) { seqs.append(try! $0.get()) }
            }
            journal.flush()
            let s = seqs.get()
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

    @Test func aSnapshotAheadOfTheJournalIsRefused() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let done = Protected<[Result<Void, StoreError>]>([])
            journal.saveSnapshot(stream: "phone", upTo: 10, state: [1]) { done.append($0) }
            guard case .failure(.snapshotAheadOfJournal(let stream, let upTo, let lastAppended)) = done.get().first
            else {
                Issue.record("snapshot ahead of the journal was accepted: \(done.get())")
                return
            }
            #expect(stream == "phone" && upTo == 10 && lastAppended == 0)
        }
    }

    @Test func deleteStreamSurvivesReopenAndLeavesOtherStreams() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Protected<[UInt64]>([])
            journal.append(stream: "phone", record: [1]) { seqs.append(try! $0.get()) }
            journal.append(stream: "tablet", record: [2]) { seqs.append(try! $0.get()) }
            journal.flush()
            journal.saveSnapshot(stream: "phone", upTo: seqs.get()[0], state: [3])
            let deleted = Protected<[Result<Void, StoreError>]>([])
            journal.deleteStream("phone") { deleted.append($0) }
            journal.close()
            #expect(deleted.get().count == 1)

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(
                try reopened.recover() == [
                    RecoveredStream(
                        stream: "tablet", snapshot: nil, records: [JournalRecord(seq: seqs.get()[1], bytes: [2])])
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
