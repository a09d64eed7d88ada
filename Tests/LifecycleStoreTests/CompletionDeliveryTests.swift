import Dispatch
import Foundation
import Locking
import TestSupport
import Testing

@testable import LifecycleStore

/// A committed group's completions run off the writer thread: the next group is written and made durable
/// while they run, no completion runs before its record is durable, and they run in the order the
/// operations were accepted.
@Suite struct CompletionDeliveryTests {
    /// Whether the record appended as `seq` is committed, read on a connection of its own (not through the
    /// journal, whose `flush` would wait for the completions held).
    static func isCommitted(_ seq: UInt64, in directory: TemporaryDirectory) throws -> Bool {
        let connection = try SQLiteConnection(path: directory.databasePath, readOnly: true)
        defer { connection.close() }
        return try connection.integer("SELECT count(*) FROM journal WHERE seq = \(seq)") == 1
    }

    @Test func aCompletionThatTakesLongDoesNotHoldTheNextCommit() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let order = Protected<[String]>([])
            journal.append(stream: "phone", record: bytes("first")) { _ in
                entered.signal()
                release.wait()
                order.append("phone")
            }
            #expect(entered.wait(timeout: .now() + 30) == .success)

            // The phone's completion is running (and held); another device's append is still written and
            // made durable meanwhile, its completion waiting its turn.
            let tabletSeq = Protected<UInt64?>(nil)
            journal.append(stream: "tablet", record: bytes("second")) { result in
                tabletSeq.set(try? result.get())
                order.append("tablet")
            }
            let committed = try eventually(seconds: 10) { try Self.isCommitted(2, in: directory) }
            #expect(committed, "the tablet's record was not committed while the phone's completion ran")
            #expect(order.get().isEmpty)

            release.signal()
            journal.flush()
            #expect(order.get() == ["phone", "tablet"])
            #expect(tabletSeq.get() == 2)
        }
    }

    @Test func theWriterTakesEverythingQueuedWhileItWaitedForRoom() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            journal.delivery.beforeGroup = {
                entered.signal()
                release.wait()
            }
            let order = Protected<[Int]>([])
            journal.append(stream: "device-0", record: [0]) { _ in order.append(0) }
            #expect(entered.wait(timeout: .now() + 30) == .success)
            journal.delivery.beforeGroup = nil
            // The first group's completions are held: the writer writes one group more, then waits for room.
            journal.append(stream: "device-1", record: [1]) { _ in order.append(1) }
            #expect(try eventually(seconds: 30) { try Self.isCommitted(2, in: directory) })
            for index in 2..<52 {
                journal.append(stream: "device-\(index % 5)", record: [UInt8(index)]) { _ in order.append(index) }
            }
            release.signal()
            journal.flush()
            #expect(order.get() == Array(0..<52))
            #expect(journal.commitCount == 3, "\(journal.commitCount) commits: the 50 waiting were not one group")
        }
    }
}
