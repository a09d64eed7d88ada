import Foundation
import LifecycleCore
import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios
import LifecycleTesting
import Testing

/// What `lifecycled explore` writes of a property it found false, run by the daemon itself as `lifecycled check`
/// runs it: it fails at its last step, the property, with the explorer's words.
@Suite struct ExploreCheckTests {
    @Test func theShrunkScenarioFailsInCheckTheSameWay() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = "examples/explore/background-task.json"
        let bytes = Array(try Data(contentsOf: root.appendingPathComponent(file)))
        let world = try ExploreWorld(
            scenario: ScenarioFormat.scenario(file: file, bytes: bytes), source: "LIFECYCLE §6")
        var options = ExploreOptions()
        options.versions = [Version(17, 0)]
        let finding = try #require(try Explorer(world: world, options: options).run().failure)
        let written = world.scenario(of: finding, seed: options.seed)
        let scenario = try ScenarioFormat.scenario(file: "found.json", bytes: Array(written.utf8))
        try withDaemon { server in
            var runner = ScenarioRunner(
                transport: ExportImportTests.DaemonTransport(server: server), namespace: "found")
            runner.runToken = "check0run"
            do {
                try runner.run(scenario)
                Issue.record("the scenario passed:\n\(written)")
            } catch let mismatch as Mismatch {
                #expect(mismatch.step == scenario.steps.count, "it fails at the property: \(mismatch)")
                let message = mismatch.description.replacingOccurrences(of: "check0run", with: "${run}")
                #expect(message.hasSuffix(": " + finding.failure.message), "\(message)\n\(finding.failure.message)")
            }
            // Without the walk, the property holds: the failure is the walk's.
            let unwalked = Scenario(
                file: "setup.json", name: "setup", steps: world.setup + [world.properties[0].step])
            runner.namespace = "unwalked"
            try runner.run(unwalked)
        }
    }
}
