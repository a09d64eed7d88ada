import Foundation
import TestSupport
import Testing

@testable import LifecycleStore

@Suite struct OpeningTests {
    @Test func aFileOfGarbageIsRefusedAsNotOurs() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            try Data("this is not a database, just some bytes\n".utf8).write(
                to: URL(fileURLWithPath: directory.databasePath))
            let error = #expect(throws: StoreError.self) {
                try SQLiteJournal(directory: directory.path, logger: testLogger)
            }
            guard case .notALifecycledDatabase(let path, _) = error else {
                Issue.record("expected notALifecycledDatabase, got \(String(describing: error))")
                return
            }
            #expect(path == directory.databasePath)
            #expect(error?.description.contains("is not a lifecycled database") == true)
            // The refused file is left exactly as it was.
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory.databasePath)).count == 40)
        }
    }

    @Test func garbageAfterAValidHeaderIsRefusedToo() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            var bytes = Array("SQLite format 3\0".utf8)
            bytes += [UInt8](repeating: 0xA5, count: 4096)
            try Data(bytes).write(to: URL(fileURLWithPath: directory.databasePath))
            let error = #expect(throws: StoreError.self) {
                try SQLiteJournal(directory: directory.path, logger: testLogger)
            }
            switch error {
            case .notALifecycledDatabase, .corrupt: break
            default: Issue.record("expected a refusal, got \(String(describing: error))")
            }
        }
    }

    @Test func anotherApplicationsDatabaseIsRefused() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            let other = try SQLiteConnection(path: directory.databasePath, readOnly: false)
            try other.execute("CREATE TABLE notes(text TEXT)", operation: "setup")
            other.close()
            let error = #expect(throws: StoreError.self) {
                try SQLiteJournal(directory: directory.path, logger: testLogger)
            }
            guard case .notALifecycledDatabase(_, let reason) = error else {
                Issue.record("expected notALifecycledDatabase, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("application_id"))
        }
    }

    @Test func aNewerSchemaIsRefused() throws {
        try TemporaryDirectory.with { directory in
            try SQLiteJournal(directory: directory.path, logger: testLogger).close()
            let connection = try SQLiteConnection(path: directory.databasePath, readOnly: false)
            try connection.execute("PRAGMA user_version = 99", operation: "setup")
            connection.close()
            #expect(
                throws: StoreError.schemaVersionTooNew(
                    path: directory.databasePath, found: 99, supported: StoreSchema.version)
            ) {
                try SQLiteJournal(directory: directory.path, logger: testLogger)
            }
        }
    }

    @Test func aDamagedDatabaseIsRefusedAsCorrupt() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            for index in 0..<2_000 {
                journal.append(stream: "device-\(index % 7)", record: [UInt8](repeating: UInt8(index % 251), count: 64))
                { _ in }
            }
            journal.close()
            // Overwrite a page in the middle of the journal table's b-tree.
            let file = try FileHandle(forUpdating: URL(fileURLWithPath: directory.databasePath))
            let size = try file.seekToEnd()
            let pageSize = UInt64(try Self.pageSize(of: directory.databasePath))
            try file.seek(toOffset: (size / pageSize / 2) * pageSize)
            file.write(Data(repeating: 0x5A, count: Int(pageSize)))
            try file.close()

            let error = #expect(throws: StoreError.self) {
                try SQLiteJournal(directory: directory.path, logger: testLogger)
            }
            guard case .corrupt = error else {
                Issue.record("expected corrupt, got \(String(describing: error))")
                return
            }
            #expect(error?.description.contains("corrupt") == true)
        }
    }

    @Test func aSecondJournalOnTheSameDirectoryIsRefusedWhileTheFirstIsOpen() throws {
        try TemporaryDirectory.with { directory in
            let first = try SQLiteJournal(directory: directory.path, logger: testLogger)
            let error = #expect(throws: StoreError.self) {
                try SQLiteJournal(directory: directory.path, logger: testLogger)
            }
            guard case .lockedByAnotherProcess(let lockFile, let holder) = error else {
                Issue.record("expected lockedByAnotherProcess, got \(String(describing: error))")
                first.close()
                return
            }
            #expect(lockFile.hasSuffix("lifecycled.lock"))
            #expect(holder == "\(ProcessInfo.processInfo.processIdentifier)")
            first.close()
            // Once the first is closed the directory is free again.
            try SQLiteJournal(directory: directory.path, logger: testLogger).close()
        }
    }

    @Test func aDirectoryThatCannotBeCreatedIsReported() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            let blocker = URL(fileURLWithPath: directory.path).appendingPathComponent("file").path
            try Data().write(to: URL(fileURLWithPath: blocker))
            let error = #expect(throws: StoreError.self) {
                try SQLiteJournal(directory: blocker + "/data", logger: testLogger)
            }
            guard case .cannotCreateDirectory(let path, _) = error else {
                Issue.record("expected cannotCreateDirectory, got \(String(describing: error))")
                return
            }
            #expect(path == blocker + "/data")
        }
    }
    /// SQLite's page size, as the file says.
    static func pageSize(of path: String) throws -> Int {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        defer { connection.close() }
        return Int(try connection.integer("PRAGMA page_size"))
    }

    @Test func aNewJournalHasSmallPagesAndItsSnapshotStoreSQLitesDefault() throws {
        try TemporaryDirectory.with { directory in
            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            journal.append(stream: "phone", record: [1]) { _ in }
            journal.close()
            #expect(try Self.pageSize(of: directory.databasePath) == StoreSchema.journalPageSize)
            #expect(StoreSchema.journalPageSize == 1024)
            let snapshots = URL(fileURLWithPath: directory.path).appendingPathComponent(SnapshotStore.fileName).path
            #expect(try Self.pageSize(of: snapshots) == 4096)
        }
    }

    /// A journal an earlier build made, with SQLite's default pages, keeps them and works as before.
    @Test func anEarlierJournalKeepsItsPageSize() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            let earlier = try SQLiteConnection(path: directory.databasePath, readOnly: false)
            try earlier.execute("PRAGMA page_size = 4096", operation: "as an earlier build")
            for step in StoreSchema.steps { try earlier.execute(step, operation: "as an earlier build") }
            earlier.close()

            let journal = try SQLiteJournal(directory: directory.path, logger: testLogger)
            for index in 0..<100 { journal.append(stream: "phone", record: [UInt8(index)]) { _ in } }
            journal.close()
            #expect(try Self.pageSize(of: directory.databasePath) == 4096)
            let reopened = try SQLiteJournal(directory: directory.path, logger: testLogger)
            defer { reopened.close() }
            #expect(try reopened.recover().first?.records.map(\.bytes) == (0..<100).map { [UInt8($0)] })
        }
    }
}
