import Foundation
import LifecycleScenarios

/// A scenario `--seed` names, read at start-up.
public struct SeedScenario: Sendable {
    public var file: String
    public var bytes: [UInt8]

    public init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    /// The scenarios the paths name: a file, or a folder's `*.json` files in name order (as `lifecycled check`
    /// reads them), each at most `limit` bytes (what an import's body may be: `--max-body-bytes`). The limit holds
    /// for the bytes read (at most one past it), whatever the path's own size says: a symbolic link, or a file
    /// that grows, is held to it too.
    public static func read(_ paths: [String], limit: Int) throws -> [SeedScenario] {
        try paths.flatMap(Scenario.files(at:)).map { file in
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw SeedError(description: "cannot read \(file)")
            }
            defer { try? handle.close() }
            var bytes: [UInt8] = []
            do {
                while bytes.count <= limit, let chunk = try handle.read(upToCount: limit + 1 - bytes.count),
                    !chunk.isEmpty
                {
                    bytes += chunk
                }
            } catch {
                throw SeedError(description: "cannot read \(file): \(error)")
            }
            guard bytes.count <= limit else {
                throw SeedError(
                    description: "\(file) holds more bytes than a scenario may (\(limit), --max-body-bytes)")
            }
            return SeedScenario(file: file, bytes: bytes)
        }
    }
}

/// Why a seed did not apply: start-up stops.
public struct SeedError: Error, CustomStringConvertible {
    public var description: String

    package init(description: String) {
        self.description = description
    }
}
