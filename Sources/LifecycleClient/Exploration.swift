public import Foundation
import LifecycleCore
package import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios

/// `lifecycled explore` from a team's Swift tests (docs/EXPLORE.md, "From Swift"): seeded random walks of the
/// catalogue's events against the world a scenario makes, the properties of the scenario format held after each
/// event, and the first walk that breaks one shrunk to a scenario, given back as a value. It runs in this process
/// on the core (what an `EmbeddedDaemon` runs), on a daemon at a URL (`run(url:namespace:)`) or on an embedded
/// one (`EmbeddedDaemon.explore`); the same seed gives the same result on each. An app created with
/// `delegate: {"live": true}` is answered by the team's `LiveApplicationDelegate` (`delegates`, in process only),
/// whose own `expect` and `check` are properties too.
///
///     var exploration = Exploration(world: worldJSON, properties: [propertyJSON])
///     exploration.delegates["a"] = { SessionTracker() }
///     let result = try exploration.run()
///     #expect(result.failure == nil, "\(result.failure?.scenario ?? "")")
public struct Exploration: Sendable {
    /// A scenario file's text whose `POST` steps make the world (and whose reads with an `expect` are properties).
    public var world: String
    /// Scenario files' texts whose reads with an `expect` are properties.
    public var properties: [String]
    public var seed: UInt64 = 1
    public var walks = 100
    public var steps = 50
    /// iOS versions the walks run on in turn (walk n on the n-th); empty: the world's own.
    public var versions: [String] = []
    /// Whether the properties are checked at the end of each walk only (else after each event).
    public var checkAtEnd = false
    /// The delegate of each live app, by its id as the world writes it (`${run}` in it): a new one for each walk.
    public var delegates: [String: @Sendable () -> any LiveApplicationDelegate] = [:]

    public init(world: String, properties: [String] = []) {
        self.world = world
        self.properties = properties
    }

    /// Explores in this process.
    public func run() throws(ExplorationError) -> ExplorationResult {
        try run(on: nil)
    }

    /// Explores on the daemon at `url` too, in `namespace` (emptied before each walk; not `default`).
    public func run(url: URL, namespace: String = "explore", token: String? = nil) throws(ExplorationError)
        -> ExplorationResult
    {
        let daemon: ExploreDaemon
        do {
            daemon = try ExploreDaemon(
                transport: URLSessionScenarioTransport(root: url.absoluteString), namespace: namespace, token: token)
        } catch {
            throw ExplorationError(description: error.description)
        }
        return try run(on: daemon)
    }

    /// Explores, on `daemon` too when there is one.
    package func run(on daemon: ExploreDaemon?) throws(ExplorationError) -> ExplorationResult {
        do {
            var world = try ExploreWorld(
                scenario: try Self.scenario("world", world), source: "",
                properties: try properties.enumerated().map {
                    try Self.scenario("properties[\($0.offset)]", $0.element)
                },
                live: delegates.isEmpty ? nil : liveAnswerers)
            world.source = (try? JSONParser.parse(Array(self.world.utf8)))?["source"]?.stringValue ?? ""
            world.daemon = daemon
            var options = ExploreOptions()
            options.seed = seed
            options.walks = walks
            options.steps = steps
            options.everyStep = !checkAtEnd
            options.versions = try versions.map { text throws(ExploreError) in
                guard let version = Version(text) else {
                    throw ExploreError("versions: \(text) is not an iOS version (MAJOR.MINOR, e.g. 9.0)")
                }
                return version
            }
            guard ExploreOptions.walkRange.contains(walks), ExploreOptions.stepRange.contains(steps) else {
                throw ExploreError(
                    "walks must be from 1 to \(ExploreOptions.walkRange.upperBound) and steps from 1 to "
                        + "\(ExploreOptions.stepRange.upperBound), not \(walks) and \(steps)")
            }
            let explorer = Explorer(world: world, options: options)
            let report = try explorer.run()
            return ExplorationResult(
                walks: report.walks, events: report.events,
                failure: report.failure.map { ExplorationFailure($0, world: world, seed: seed) })
        } catch {
            throw ExplorationError(description: "\(error)")
        }
    }

    /// The delegate of a live app, made afresh: a `LiveDelegateAdapter` whose application's failures count.
    private var liveAnswerers: @Sendable (String) -> LiveAnswerer? {
        let delegates = delegates
        return { app in
            guard let make = delegates[app] else { return nil }
            let adapter = LiveDelegateAdapter(app: app, delegate: make())
            return LiveAnswerer(answering: adapter, failure: { adapter.application.failures.first })
        }
    }

    private static func scenario(_ name: String, _ text: String) throws(ExploreError) -> Scenario {
        do {
            return try ScenarioFormat.scenario(file: name, bytes: Array(text.utf8))
        } catch {
            throw ExploreError(error.problems.map { "\(name): \($0)" }.joined(separator: "; "))
        }
    }
}

/// What an exploration did, and the first property it found false, shrunk.
public struct ExplorationResult: Equatable, Sendable {
    public var walks: Int
    /// Events applied, in every walk.
    public var events: Int
    public var failure: ExplorationFailure?
}

/// A property found false: which, why, the walk that found it and the walk shrunk, and the scenario that
/// replays it (which `lifecycled check` fails the same way; for a live delegate's assertion, with that delegate).
public struct ExplorationFailure: Equatable, Sendable {
    /// The property: `FILE steps[N]`, or the live delegates' assertions.
    public var property: String
    /// The scenario runner's words for it (or the delegate's).
    public var message: String
    public var walk: Int
    public var version: String?
    /// The walk's events as scenario steps, one a line: as found, and shrunk.
    public var found: [String]
    public var shrunk: [String]
    /// The scenario file's text.
    public var scenario: String

    init(_ finding: ExploreFinding, world: ExploreWorld, seed: UInt64) {
        let devices = world.deviceIDs(on: finding.version)
        property = world.propertyLabel(finding.failure.property).label
        message = finding.failure.message
        walk = finding.walk
        version = finding.version?.description
        found = finding.steps.map { world.line($0, devices: devices) }
        shrunk = finding.shrunk.map { world.line($0, devices: devices) }
        scenario = world.scenario(of: finding, seed: seed)
    }
}

/// Why an exploration could not run: a file that is not a scenario explore can run, a wrong option, a daemon
/// that refused the world or answered otherwise than the core.
public struct ExplorationError: Error, CustomStringConvertible, Sendable {
    public var description: String

    package init(description: String) { self.description = description }
}
