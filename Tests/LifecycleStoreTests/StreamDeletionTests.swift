import Foundation
import TestSupport
import Locking
import Testing

@testable import LifecycleStore

/// A stream deleted in this process is never recreated by a late append or snapshot; only a record that
/// starts the stream brings the name back, afresh.
@Suite struct StreamDeletionTests {
    static func error(_ result: Result<Void, StoreError>) -> StoreError? {
        guard case .failure(let error) = result else { return nil }
        return error
    }

    @Test func aLateAppendOrSnapshotOfADeletedStreamIsRefusedAndLeavesNothing() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let first = Protected<[Result<UInt64, StoreError>]>([])
            journal.append(stream: "phone", record: [1], startsStream: true) { first.append($0) }
            journal.append(stream: "phone", record: [2]) { first.append($0) }
            journal.deleteStream("phone")
            let late = Protected<[Result<UInt64, StoreError>]>([])
            journal.append(stream: "phone", record: [3]) { late.append($0) }
            let snapshot = Protected<[Result<Void, StoreError>]>([])
            journal.saveSnapshot(stream: "phone", upTo: 2, state: [9]) { snapshot.append($0) }
            journal.flush()
            journal.close()
            #expect(late.get() == [.failure(.streamDeleted(stream: "phone"))])
            #expect(snapshot.get().map(Self.error) == [.streamDeleted(stream: "phone")])

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(try reopened.recover() == [])
        }
    }

    @Test func aStartingRecordBringsTheNameBackAfreshAndOlderSnapshotsStayOut() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Protected<[Result<UInt64, StoreError>]>([])
            journal.append(stream: "phone", record: [1], startsStream: true) { seqs.append($0) }
            journal.deleteStream("phone")
            journal.append(stream: "phone", record: [2], startsStream: true) { seqs.append($0) }
            let stale = Protected<[Result<Void, StoreError>]>([])
            journal.saveSnapshot(stream: "phone", upTo: 1, state: [9]) { stale.append($0) }
            // After a reset, no snapshot of a record before it is kept either.
            journal.append(stream: "tablet", record: [3], startsStream: true) { seqs.append($0) }
            journal.deleteAll()
            journal.saveSnapshot(stream: "tablet", upTo: 3, state: [9]) { stale.append($0) }
            journal.append(stream: "tablet", record: [4], startsStream: true) { seqs.append($0) }
            journal.flush()
            journal.close()
            #expect(
                stale.get().map(Self.error) == [.streamDeleted(stream: "phone"), .streamDeleted(stream: "tablet")])

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(
                try reopened.recover() == [
                    RecoveredStream(stream: "tablet", snapshot: nil, records: [JournalRecord(seq: 4, bytes: [4])])
                ])
        }
    }

    @Test func aStartingRecordDropsWhateverAStreamOfThatNameHeld() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            journal.append(stream: "phone", record: [1], startsStream: true) { _ in }
            journal.append(stream: "phone", record: [2]) { _ in }
            journal.flush()
            journal.saveSnapshot(stream: "phone", upTo: 2, state: [9])
            journal.append(stream: "phone", record: [3], startsStream: true) { _ in }
            journal.close()

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(
                try reopened.recover() == [
                    RecoveredStream(stream: "phone", snapshot: nil, records: [JournalRecord(seq: 3, bytes: [3])])
                ])
        }
    }
}
