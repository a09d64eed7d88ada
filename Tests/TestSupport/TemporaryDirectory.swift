import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
package struct TemporaryDirectory: Sendable {
    package let path: String

    package init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("lifecycled-tests-\(UUID().uuidString)").path
    }

    /// Where a journal in this directory keeps its database.
    package var databasePath: String {
        URL(fileURLWithPath: path).appendingPathComponent("lifecycled.sqlite3").path
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs `body` with a fresh directory (not created yet) and always removes it afterwards.
    package static func with<T>(_ body: (TemporaryDirectory) throws -> T) rethrows -> T {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        return try body(directory)
    }
}

/// Runs `body` with the path of a fresh, existing directory and always removes it afterwards.
package func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    try TemporaryDirectory.with { directory in
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        return try body(directory.path)
    }
}

/// The same for an asynchronous `body`.
package func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
    return try await body(directory.path)
}
