import Foundation
import TestSupport
import Locking
import Testing

@testable import LifecycleStore

@Suite struct SQLiteJournalTests {
    @Test func appendedRecordsComeBackInOrderFromANewInstance() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let seqs = Protected<[UInt64]>([])
            let appended: [(String, [UInt8])] = [
                ("phone", bytes("launch")), ("tablet", bytes("launch")), ("phone", []),
                ("phone", bytes("background")), ("tablet", [0, 255, 0]),
            ]
            for (stream, record) in appended {
                journal.append(stream: stream, record: record) { seqs.append(try! $0.get()) }
            }
            journal.close()

            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            let recovered = try reopened.recover()
            let s = seqs.get()
            #expect(
                recovered == [
                    RecoveredStream(
                        stream: "phone",
                        snapshot: nil,
                        records: [
                            JournalRecord(seq: s[0], bytes: bytes("launch")), JournalRecord(seq: s[2], bytes: []),
                            JournalRecord(seq: s[3], bytes: bytes("background")),
                        ]
                    ),
                    RecoveredStream(
                        stream: "tablet",
                        snapshot: nil,
                        records: [
                            JournalRecord(seq: s[1], bytes: bytes("launch")),
                            JournalRecord(seq: s[4], bytes: [0, 255, 0]),
                        ]
                    ),
                ]
            )
        }
    }

    @Test func durableCallbacksComeInAppendOrderAfterTheirCommit() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let order = Protected<[Int]>([])
            let seqs = Protected<[UInt64]>([])
            let visibleAtCallback = Protected<[Bool]>([])
            for index in 0..<200 {
                journal.append(stream: "device-\(index % 3)", record: bytes("\(index)")) { result in
                    let seq = try! result.get()
                    order.append(index)
                    seqs.append(seq)
                    if index % 50 == 0 {
                        // recover() reads on its own connection, so it sees only what is committed.
                        let committed = (try? journal.recover())?.flatMap { $0.records.map(\.seq) } ?? []
                        visibleAtCallback.append(committed.contains(seq))
                    }
                }
            }
            journal.flush()
            #expect(order.get() == Array(0..<200))
            #expect(seqs.get() == seqs.get().sorted() && Set(seqs.get()).count == 200)
            #expect(visibleAtCallback.get() == [true, true, true, true])
        }
    }

    @Test func concurrentAppendsShareFarFewerCommits() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let appenders = 32
            let appendsEach = 20
            let failures = Protected<[StoreError]>([])
            DispatchQueue.concurrentPerform(iterations: appenders) { appender in
                for index in 0..<appendsEach {
                    journal.append(stream: "device-\(appender)", record: bytes("\(index)")) { result in
                        if case .failure(let error) = result { failures.append(error) }
                    }
                }
            }
            journal.flush()
            let appends = appenders * appendsEach
            #expect(failures.get().isEmpty)
            #expect(journal.commitCount >= 1)
            #expect(journal.commitCount < UInt64(appends / 10), "\(journal.commitCount) commits for \(appends) appends")
            #expect(try journal.recover().reduce(0) { $0 + $1.records.count } == appends)
        }
    }

    @Test func sequenceNumbersContinueAfterReopenAndAfterDeleteAll() throws {
        try TemporaryDirectory.with { directory in
            let first = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let before = Protected<[UInt64]>([])
            for _ in 0..<3 { first.append(stream: "a", record: [1]) { before.append(try! $0.get()) } }
            first.deleteAll()
            first.close()

            let second = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { second.close() }
            let after = Protected<[UInt64]>([])
            second.append(stream: "a", record: [2]) { after.append(try! $0.get()) }
            second.flush()
            #expect(before.get() == [1, 2, 3])
            #expect(after.get() == [4])
        }
    }

    @Test func flushWaitsForEveryAcceptedOperation() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let done = Protected<[UInt64]>([])
            for _ in 0..<500 { journal.append(stream: "a", record: [7]) { done.append(try! $0.get()) } }
            journal.flush()
            #expect(done.get().count == 500)
        }
    }

    @Test func operationsAfterCloseFailWithClosed() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            journal.close()
            let results = Protected<[Result<UInt64, StoreError>]>([])
            journal.append(stream: "a", record: [1]) { results.append($0) }
            #expect(results.get().count == 1)
            #expect(throws: StoreError.closed) { try journal.recover() }
            if case .failure(let error) = results.get().first {
                #expect(error == .closed)
            } else {
                Issue.record("append after close succeeded")
            }
        }
    }
}
