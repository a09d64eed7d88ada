import Foundation
package import LifecycleScenarios

/// A property found false: which, and the runner's words for it.
package struct PropertyFailure: Sendable {
    /// The property's index in the world's `properties`.
    package var property: Int
    /// What the scenario runner says of the read (the step's label left out: the written scenario numbers its
    /// steps otherwise).
    package var message: String
    package var mismatch: Mismatch
}

extension ExploreWorld {
    /// The first property that does not hold of `state`, through the scenario runner itself (its `${run}`,
    /// `pluck` and patterns), on reads answered in this process; nil when every one holds.
    /// On a daemon the reads are the daemon's answers; the live delegates' assertions come first (property
    /// `properties.count`).
    package func firstFailure(in state: WorldState) -> PropertyFailure? {
        if let (app, message) = state.live?.firstFailure() {
            let shown = "app \(app.replacingOccurrences(of: Self.run, with: "${run}"))'s delegate: \(message)"
            return PropertyFailure(property: properties.count, message: shown, mismatch: Mismatch(shown))
        }
        var runner = state.daemon?.runner ?? ScenarioRunner(transport: WorldReads(state: state))
        runner.runToken = Self.run
        // Properties that read the same page one after another parse it once (and in process, write it once).
        runner.parsedAnswer = ParsedAnswer()
        for (index, property) in properties.enumerated() {
            do {
                try runner.run(Scenario(file: property.label, name: property.label, steps: [property.step]))
            } catch let mismatch as Mismatch {
                var message = mismatch.description
                // "step 1 (GET /v1/...): " is the runner's label of the one step.
                if let end = message.range(of: "): ") { message = String(message[end.upperBound...]) }
                message = message.replacingOccurrences(of: Self.run, with: "${run}")
                var shown = mismatch
                shown.lists = mismatch.lists.map {
                    ($0.expected.map(Self.withRun), $0.actual.map(Self.withRun), $0.index)
                }
                return PropertyFailure(property: index, message: message, mismatch: shown)
            } catch {
                return PropertyFailure(property: index, message: "\(error)", mismatch: Mismatch("\(error)"))
            }
        }
        return nil
    }
}
