package import LifecycleCore

/// Walks aimed at what a suite has not covered (`lifecycled explore --aim`, docs/EXPLORE.md "Aiming at what a
/// suite missed"): at each step a walk draws several events, each tried on a copy of the world, and takes the
/// one whose entries bring the most that neither the suite (its `check --coverage`) nor the walks so far
/// exercised on the device's band: an app state, a transition, an event type, a callback, a scene state (the
/// first drawn when none brings anything, as an unaimed walk would take). The walks that reached something new
/// are kept, each cut after its last step that did, to be written as scenarios; the coverage after is the
/// suite's with what they add. In process, scripted delegates (a live delegate would be called by the tries).
package struct AimedExploration: Sendable {
    package let world: ExploreWorld
    package let options: ExploreOptions
    /// The suite's coverage.
    package let before: Coverage
    /// Events tried at each step of an aimed walk.
    package static let candidates = 6

    package init(world: ExploreWorld, options: ExploreOptions, before: Coverage) {
        self.world = world
        self.options = options
        self.before = before
    }

    /// A walk that reached something new: its steps up to the last that did, and what it added.
    package struct Walk: Sendable {
        package var index: Int
        package var version: Version?
        package var steps: [WalkStep]
        /// What it exercised first, by band label.
        package var added: [String: CoverageTally]
    }

    package struct Report: Sendable {
        package var walks: [Walk] = []
        package var events = 0
        /// The suite's coverage with what the walks exercised.
        package var after: Coverage
    }

    /// Runs the walks; `aimed` false draws them as `Explorer` does (the same budget, for comparison).
    package func run(aimed: Bool = true) throws(ExploreError) -> Report {
        guard world.daemon == nil, world.live == nil else {
            throw ExploreError("explore aims in process, at apps with scripted delegates: not with --url or live ones")
        }
        var report = Report(after: before)
        for index in 0..<options.walks {
            let version = options.versions.isEmpty ? nil : options.versions[index % options.versions.count]
            var state = try world.start(on: version)
            let bands = state.devices.map { before.model.band(of: $0.configuration.iosVersion) }
            var walker = Walker(seed: Walker.seed(of: index, in: options.seed))
            var steps: [WalkStep] = []
            var kept = 0
            var added: [Int: CoverageTally] = [:]
            var stuck = 0
            while steps.count < options.steps, stuck < Walker.stuck {
                let counts = state.timelines.map(\.count)
                let taken: WalkStep?
                if aimed {
                    taken = walker.step(&state, candidates: Self.candidates) { copy, step in
                        Self.tally(step, copy.timelines[step.device][counts[step.device]...])
                            .newCount(beyond: report.after.covered(in: bands[step.device]))
                    }
                } else {
                    taken = walker.step(&state)
                }
                guard let step = taken else {
                    stuck += 1
                    continue
                }
                stuck = 0
                steps.append(step)
                guard let band = bands[step.device] else { continue }
                let tally = Self.tally(step, state.timelines[step.device][counts[step.device]...])
                let fresh = tally.subtracting(report.after.covered(in: band) ?? CoverageTally())
                if !fresh.isEmpty {
                    kept = steps.count
                    added[band, default: CoverageTally()].formUnion(fresh)
                    report.after.add(fresh, band: band)
                }
            }
            report.events += steps.count
            if kept > 0 {
                report.walks.append(
                    Walk(
                        index: index, version: version, steps: Array(steps[..<kept]),
                        added: Dictionary(
                            uniqueKeysWithValues: added.map { (before.model.bands[$0.key].label, $0.value) })))
            }
        }
        return report
    }

    /// What one step exercised: its event's type and its entries.
    static func tally(_ step: WalkStep, _ entries: ArraySlice<TimelineEntry>) -> CoverageTally {
        var tally = CoverageTally()
        tally.events.insert(step.event.eventType.name)
        for entry in entries { tally.add(entry) }
        return tally
    }
}

extension Walker {
    /// Draws up to `candidates` steps, each applied to a copy of `state`, and applies the one `score` rates
    /// highest (the first drawn of those); nil when none could be drawn.
    mutating func step(
        _ state: inout WorldState, candidates: Int, score: (WorldState, WalkStep) -> Int
    ) -> WalkStep? {
        var best: (state: WorldState, step: WalkStep, score: Int)?
        for _ in 0..<candidates {
            var copy = state
            guard let step = step(&copy) else { continue }
            let rated = score(copy, step)
            if best == nil || rated > best!.score { best = (copy, step, rated) }
        }
        guard let best else { return nil }
        state = best.state
        return best.step
    }
}
