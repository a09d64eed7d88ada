import LifecycleCore
package import LifecycleScenarios

/// A running daemon the walks run on (`lifecycled explore --url`, the Swift client's `Exploration`): each walk
/// (and each replay of the shrinking) empties the namespace (`POST .../reset`), makes the world there with the
/// setup steps, posts each event the walk draws on its app's or device's path, and reads the properties from
/// the daemon, all through the scenario runner. The walk is drawn from the core in this process, which the
/// daemon runs too: the same seed gives the same walks and the same shrunk scenario as in process, and a daemon
/// that answers otherwise than the core is named (`problem`). docs/EXPLORE.md, "Against a running daemon".
package struct ExploreDaemon: Sendable {
    package var transport: any ScenarioTransport
    /// The namespace the walks empty and fill: never `default` (its reset would empty every namespace).
    package var namespace: String
    package var token: String?

    package init(transport: any ScenarioTransport, namespace: String, token: String? = nil) throws(ExploreError) {
        guard namespace != "default" else {
            throw ExploreError(
                "explore empties its namespace before each walk: give one of its own, not default (whose reset "
                    + "would empty every namespace)")
        }
        self.transport = transport
        self.namespace = namespace
        self.token = token
    }

    /// The runner of the daemon's steps: in the namespace, `${run}` the explorer's.
    var runner: ScenarioRunner {
        var runner = ScenarioRunner(transport: transport, namespace: namespace, token: token)
        runner.runToken = ExploreWorld.run
        return runner
    }

    /// Runs written steps on the daemon; the runner's words for the first that fails.
    func run(_ steps: [JSONValue], label: String) -> String? {
        do {
            try runner.run(Scenario(file: label, name: label, steps: steps))
            return nil
        } catch {
            return "\(label): \(error)"
        }
    }

    /// Empties the namespace and makes the world with `setup`; throws the daemon's answer when it refuses.
    func start(_ setup: [JSONValue]) throws(ExploreError) {
        let reset = JSONValue.object(["do": .string("POST /v1/reset")])
        if let problem = run([reset] + setup, label: "the world's setup in the namespace \(namespace)") {
            throw ExploreError(problem)
        }
    }
}

extension WorldState {
    /// Posts a step the core took to the daemon, if any; the first it refuses is kept as `daemonProblem`.
    mutating func post(_ step: WalkStep) {
        guard let daemon, daemonProblem == nil else { return }
        let written = ExploreWorld.written(step, deviceID: devices[step.device].id)
        daemonProblem = daemon.run(
            [written], label: "the daemon refused an event the core took (\(ExploreWorld.line(written)))")
    }
}
