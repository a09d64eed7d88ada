import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire
import Logging

extension LifecycleService {
    /// Applies each seed into the namespace it names (`default` when none), as an import checking its
    /// expectations, when the application says it applies there (`Application.seedApplies`: once). Runs before
    /// the daemon is ready.
    func applySeeds() throws(SeedError) {
        for seed in options.seeds {
            let scenario: Scenario
            do {
                scenario = try Application.importable(try JSONParser.parse(seed.bytes))
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
            guard application.seedApplies(to: name) else {
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
