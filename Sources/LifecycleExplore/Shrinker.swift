package import LifecycleCore

/// A failing walk made as small as it can be while the same property still fails: events deleted (halves, then
/// smaller runs, then one at a time), then each event's values made simpler (`EventValues.simpler`: fewer
/// optional fields, smaller numbers, so shorter times), repeated until nothing changes. A candidate the core
/// refuses part of is replayed without the refused events, so every walk kept is one a daemon accepts whole.
package struct Shrinker: Sendable {
    package let world: ExploreWorld
    package let version: Version?
    /// Whether the properties are checked after each step (else at the end only).
    package let everyStep: Bool
    /// The most rounds of deleting and simplifying.
    static let rounds = 20
    /// The most simplifications of one event in a round.
    static let simplifications = 64
    /// Replays tried so far.
    package private(set) var replays = 0

    package init(world: ExploreWorld, version: Version?, everyStep: Bool) {
        self.world = world
        self.version = version
        self.everyStep = everyStep
    }

    /// The events of `steps` the core takes, up to the first step after which `property` fails (at the end
    /// when not checked at each step); nil when it holds throughout.
    package mutating func replay(_ steps: [WalkStep], failing property: Int) -> (
        steps: [WalkStep], failure: PropertyFailure
    )? {
        replays += 1
        guard var state = try? world.start(on: version) else { return nil }
        var kept: [WalkStep] = []
        if let failure = world.firstFailure(in: state) {
            return failure.property == property ? ([], failure) : nil
        }
        for step in steps where state.apply(step) {
            guard state.daemonProblem == nil else { return nil }
            kept.append(step)
            if everyStep, let failure = world.firstFailure(in: state) {
                return failure.property == property ? (kept, failure) : nil
            }
        }
        if !everyStep, let failure = world.firstFailure(in: state), failure.property == property {
            return (kept, failure)
        }
        return nil
    }

    /// The smallest walk found that still makes `property` fail, and that failure.
    package mutating func shrink(_ steps: [WalkStep], failing property: Int) -> (
        steps: [WalkStep], failure: PropertyFailure
    )? {
        guard var best = replay(steps, failing: property) else { return nil }
        var changed = true
        var rounds = 0
        while changed, rounds < Self.rounds {
            changed = false
            rounds += 1
            // Deleting: runs of half the walk, then shorter, down to one event.
            var size = max(1, best.steps.count / 2)
            while size >= 1 {
                var start = 0
                while start < best.steps.count {
                    var candidate = best.steps
                    candidate.removeSubrange(start..<min(start + size, candidate.count))
                    if let smaller = replay(candidate, failing: property), smaller.steps.count < best.steps.count {
                        best = smaller
                        changed = true
                    } else {
                        start += size
                    }
                }
                size /= 2
            }
            // Simplifying each event's values.
            var index = 0
            while index < best.steps.count {
                var simplified = true
                var tries = 0
                while simplified, tries < Self.simplifications {
                    simplified = false
                    tries += 1
                    for simpler in EventValues.simpler(best.steps[index].event) {
                        var candidate = best.steps
                        candidate[index].event = simpler
                        if let smaller = replay(candidate, failing: property), smaller.steps.count == best.steps.count {
                            best = smaller
                            (changed, simplified) = (true, true)
                            break
                        }
                    }
                }
                index += 1
            }
        }
        return best
    }
}
