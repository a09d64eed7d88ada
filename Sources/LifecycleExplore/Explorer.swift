package import LifecycleCore

/// What to explore: how many walks of how many steps, from which seed, on which iOS versions.
package struct ExploreOptions: Sendable {
    package var seed: UInt64 = 1
    package var walks = 100
    package var steps = 50
    /// The versions the walks run on, in turn (walk n on the n-th, modulo); empty: each device's own.
    package var versions: [Version] = []
    /// Whether the properties are checked after each step (else at the end of each walk only).
    package var everyStep = true

    package init() {}

    /// The least and most of `walks` and `steps`.
    package static let walkRange = 1...1_000_000
    package static let stepRange = 1...100_000
}

/// The walks run, and the first property found false, shrunk.
package struct ExploreReport: Sendable {
    package var walks = 0
    /// Events applied, in every walk (the setup's left out).
    package var events = 0
    /// Events drawn that the core refused.
    package var refused = 0
    /// Each walk's steps, when asked for.
    package var walkSteps: [[WalkStep]] = []
    package var failure: ExploreFinding?
}

/// A property found false by a walk, and the walk shrunk.
package struct ExploreFinding: Sendable {
    package var walk: Int
    package var version: Version?
    package var steps: [WalkStep]
    package var shrunk: [WalkStep]
    package var failure: PropertyFailure
    /// Replays the shrinking tried.
    package var replays: Int
    /// How long the shrinking took, in seconds (not part of what a seed determines).
    package var shrinkSeconds: Double
}

package struct Explorer: Sendable {
    package let world: ExploreWorld
    package let options: ExploreOptions

    package init(world: ExploreWorld, options: ExploreOptions) {
        self.world = world
        self.options = options
    }

    /// The version walk `walk` runs on.
    package func version(of walk: Int) -> Version? {
        options.versions.isEmpty ? nil : options.versions[walk % options.versions.count]
    }

    /// Runs the walks, stopping at the first that finds a property false, and shrinks that walk.
    /// `keepingWalks`: the report holds every walk's steps. Throws when the world cannot be built, or a daemon
    /// refuses what the core took.
    package func run(keepingWalks: Bool = false) throws(ExploreError) -> ExploreReport {
        var report = ExploreReport()
        for walk in 0..<options.walks {
            let version = version(of: walk)
            var state = try world.start(on: version)
            var walker = Walker(seed: Walker.seed(of: walk, in: options.seed))
            var steps: [WalkStep] = []
            var failure = world.firstFailure(in: state)
            var stuck = 0
            while failure == nil, steps.count < options.steps, stuck < Walker.stuck {
                guard let step = walker.step(&state) else {
                    stuck += 1
                    continue
                }
                stuck = 0
                steps.append(step)
                if let problem = state.daemonProblem { throw ExploreError(problem) }
                if options.everyStep { failure = world.firstFailure(in: state) }
            }
            if !options.everyStep, failure == nil { failure = world.firstFailure(in: state) }
            report.walks += 1
            report.events += steps.count
            report.refused += walker.refused
            if keepingWalks { report.walkSteps.append(steps) }
            if let failure {
                var shrinker = Shrinker(world: world, version: version, everyStep: options.everyStep)
                let started = ContinuousClock.now
                let shrunk = shrinker.shrink(steps, failing: failure.property) ?? (steps, failure)
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                report.failure = ExploreFinding(
                    walk: walk, version: version, steps: steps, shrunk: shrunk.steps, failure: shrunk.failure,
                    replays: shrinker.replays, shrinkSeconds: seconds)
                break
            }
        }
        return report
    }
}
