public import LifecycleClient
import LifecycleDaemon
import LifecycleExplore
import LifecycleServer

extension EmbeddedDaemon {
    /// Runs `exploration` on this daemon too, in `namespace` (emptied before each walk; not `default`): each
    /// walk's events posted and its properties read through the daemon's own request handling, as over HTTP.
    /// The same seed gives the same result as `exploration.run()` (docs/EXPLORE.md, "From Swift").
    public func explore(_ exploration: Exploration, namespace: String = "explore") throws(ExplorationError)
        -> ExplorationResult
    {
        let target: ExploreDaemon
        do {
            target = try ExploreDaemon(
                transport: InProcessScenarioTransport(service: daemon.service), namespace: namespace)
        } catch {
            throw ExplorationError(description: error.description)
        }
        return try exploration.run(on: target)
    }
}
