import Foundation
import Locking
import TestSupport
import Testing

@testable import LifecycleStore

/// A named snapshot's covered records are deleted a few per commit, not all in the commit that names it: a
/// device's records lie among every other device's, so deleting thousands at once wrote as many pages in one
/// transaction, which every other device's appends in that group waited for.
@Suite struct SnapshotPruningTests {
    @Test func aSnapshotsCoveredRecordsGoAFewPerCommitAndAllInTime() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let phone = Protected<[UInt64]>([])
            for _ in 0..<2_000 { journal.append(stream: "phone", record: [1]) { phone.append(try! $0.get()) } }
            journal.append(stream: "tablet", record: [2]) { _ in }
            journal.flush()
            let named = Protected<[Result<Void, StoreError>]>([])
            journal.saveSnapshot(stream: "phone", upTo: phone.get().last!, state: [9]) { named.append($0) }
            journal.flush()
            #expect(named.get().count == 1)
            // The commit naming it (no append in it) deleted at most its budget.
            let budget = JournalWriter.pruneBudget(appends: 0)
            #expect(try journal.storedRecordCount() == 2_001 - budget)

            // Each later commit deletes a few more; recovery skips those not deleted yet.
            for _ in 0..<10 {
                journal.append(stream: "tablet", record: [3]) { _ in }
                journal.flush()
            }
            #expect(try journal.storedRecordCount() == 2_011 - budget - 10 * JournalWriter.pruneBudget(appends: 1))
            let recovered = try journal.recover()
            #expect(recovered.map(\.stream) == ["phone", "tablet"])
            #expect(recovered.first?.snapshot == StreamSnapshot(seq: phone.get().last!, state: [9]))
            #expect(recovered.first?.records == [])
            #expect(recovered.last?.records.count == 11)

            // Closing deletes the rest.
            journal.close()
            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            #expect(try reopened.storedRecordCount() == 11)
            reopened.close()

            // A covered record left behind (a stop before its deletion) goes with the next commit after opening.
            let connection = try SQLiteConnection(path: directory.databasePath, readOnly: false)
            try connection.execute(
                "INSERT INTO journal(seq, stream_id, record) SELECT 1, stream_id, x'01' FROM snapshot",
                operation: "leave a covered record")
            connection.close()
            let again = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { again.close() }
            #expect(try again.storedRecordCount() == 12)
            again.append(stream: "tablet", record: [4]) { _ in }
            again.flush()
            #expect(try again.storedRecordCount() == 12)
            #expect(try again.recover().first?.records == [])
        }
    }
}
