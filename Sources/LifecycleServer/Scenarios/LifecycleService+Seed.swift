import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire
import Logging

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
}

extension LifecycleService {
    /// Applies each seed into the namespace it names (`default` when none), as an import checking its
    /// expectations, once: a namespace that exists already (`default`: that holds a device) is left as it is,
    /// so a restart with the same data directory applies nothing twice. Runs before the daemon is ready.
    func applySeeds() throws(SeedError) {
        for seed in options.seeds {
            let scenario: Scenario
            do {
                scenario = try Self.importable(try JSONParser.parse(seed.bytes))
            } catch let error as APIError {
                throw SeedError(description: "\(seed.file) is not a scenario an import applies: \(error.detail)")
            } catch {
                throw SeedError(description: "\(seed.file) is not JSON: \(error)")
            }
            let name = scenario.namespace ?? NamespaceName.defaultName
            guard NamespaceName.isValid(name) else {
                throw SeedError(
                    description:
                        "\(seed.file) names the namespace \(name), which is not a namespace name (\(NamespaceName.pattern))"
                )
            }
            let metadata: Logger.Metadata = ["file": "\(seed.file)", "namespace": "\(name)"]
            let existing = namespaces.existing(name)
            if let existing, !existing.isDefault || !existing.registry.allDevices().isEmpty {
                logger.info("seed skipped: its namespace holds data already", metadata: metadata)
                continue
            }
            let namespaced = name != NamespaceName.defaultName
            switch runImport(scenario, namespace: namespaced ? name : nil, checks: true) {
            case .success:
                logger.info(
                    "seed applied",
                    metadata: metadata.merging(["steps": .stringConvertible(scenario.steps.count)]) { $1 })
            case .failure(let error):
                // Nothing of it stays (nor its namespace): the next start seeds again.
                throw SeedError(description: "\(seed.file) did not apply to the namespace \(name): \(error.detail)")
            }
        }
    }
}
