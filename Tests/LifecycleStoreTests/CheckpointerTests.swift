import Foundation
import TestSupport
import Testing

@testable import LifecycleStore

@Suite struct CheckpointerTests {
    @Test func committedRecordsReachTheDatabaseFileWithoutClosing() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { journal.close() }
            let record = [UInt8](repeating: 7, count: 1024)
            for _ in 0..<6_000 { journal.append(stream: "a", record: record) { _ in } }
            journal.flush()
            // The checkpointer runs on its own thread; give it ample time (up to 30 s: the full suite runs beside
            // it and once kept it past 5 s) rather than a deadline to meet.
            var databaseBytes: UInt64 = 0
            let checkpointed = try eventually(seconds: 30) {
                let attributes = try FileManager.default.attributesOfItem(atPath: directory.databasePath)
                databaseBytes = attributes[.size] as? UInt64 ?? 0
                return databaseBytes >= 4 << 20
            }
            #expect(checkpointed, "database file is \(databaseBytes) bytes; the log was never checkpointed")
        }
    }
}
