import Foundation
import HTTPServer
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
    /// reads them), each at most `limit` bytes (what an import's body may be: `--max-body-bytes`).
    public static func read(_ paths: [String], limit: Int) throws -> [SeedScenario] {
        try paths.flatMap(Scenario.files(at:)).map { file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int
            guard let size else { throw SeedError(description: "cannot read \(file)") }
            guard size <= limit else {
                throw SeedError(
                    description: "\(file) holds \(size) bytes, more than a scenario may (\(limit), --max-body-bytes)")
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw SeedError(description: "cannot read \(file)")
            }
            return SeedScenario(file: file, bytes: Array(data))
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
                throw SeedError(description: "\(seed.file) names the namespace \(name), which is not a namespace name (\(NamespaceName.pattern))")
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
                logger.info("seed applied", metadata: metadata.merging(["steps": .stringConvertible(scenario.steps.count)]) { $1 })
            case .failure(let error):
                // The import deleted what it created; a namespace it created goes too, so the next start seeds again.
                if existing == nil, namespaced {
                    _ = ImportTransport(service: self, namespace: nil).answer(
                        HTTPRequest(method: "DELETE", target: "/v1/namespaces/\(name)"))
                }
                throw SeedError(description: "\(seed.file) did not apply to the namespace \(name): \(error.detail)")
            }
        }
    }
}
