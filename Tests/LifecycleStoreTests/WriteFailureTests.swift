import Foundation
import TestSupport
import Locking
import Testing

@testable import LifecycleStore

@Suite struct WriteFailureTests {
    @Test func afterAFailedCommitEveryLaterOperationFailsWithTheSameError() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger, busyTimeoutMilliseconds: 20)
            defer { journal.close() }
            let first = Protected<[Result<UInt64, StoreError>]>([])
            journal.append(stream: "a", record: [1]) { first.append($0) }
            journal.flush()

            // Another connection holding the write lock makes the writer's BEGIN IMMEDIATE time out.
            let intruder = try SQLiteConnection(path: directory.databasePath, readOnly: false)
            try intruder.execute("BEGIN IMMEDIATE", operation: "hold write lock")
            let blocked = Protected<[Result<UInt64, StoreError>]>([])
            journal.append(stream: "a", record: [2]) { blocked.append($0) }
            journal.flush()
            try intruder.execute("ROLLBACK", operation: "release write lock")
            intruder.close()

            let later = Protected<[Result<UInt64, StoreError>]>([])
            journal.append(stream: "a", record: [3]) { later.append($0) }
            journal.flush()

            guard case .success = first.get().first, case .failure(let error) = blocked.get().first,
                case .failure(let laterError) = later.get().first
            else {
                Issue.record("unexpected results: \(first.get()) \(blocked.get()) \(later.get())")
                return
            }
            guard case .io = error else {
                Issue.record("expected an I/O error, got \(error)")
                return
            }
            #expect(laterError == error)
            #expect(error.description.contains("locked"))
        }
    }
}
