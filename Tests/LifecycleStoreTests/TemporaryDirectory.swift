import Foundation
import Logging

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("lifecycle-store-tests-\(UUID().uuidString)").path
    }

    var databasePath: String {
        URL(fileURLWithPath: path).appendingPathComponent("lifecycled.sqlite3").path
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs `body` with a fresh directory and always removes it afterwards.
    static func with<T>(_ body: (TemporaryDirectory) throws -> T) rethrows -> T {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        return try body(directory)
    }
}

/// Quiet unless something goes wrong: the journal logs every open and close at info.
let testLogger: Logger = {
    var logger = Logger(label: "lifecycled.store.tests")
    logger.logLevel = .warning
    return logger
}()

/// Collects values handed to completions on the writer thread.
final class Collected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func add(_ value: Value) {
        lock.withLock { storage.append(value) }
    }

    var values: [Value] {
        lock.withLock { storage }
    }
}

func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}
