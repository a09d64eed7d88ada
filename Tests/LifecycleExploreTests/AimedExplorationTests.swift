import Foundation
import LifecycleCore
import LifecycleExplore
import Testing

/// `lifecycled explore --aim`: walks aimed at what a suite has not covered reach more of it than unaimed walks
/// of the same budget, and the walks kept replay to what they are said to cover.
@Suite struct AimedExplorationTests {
    /// What a suite covered: here, what unaimed walks of another seed exercised on the world's band.
    static func suite(_ world: ExploreWorld, band: Int) throws -> Coverage {
        var options = ExploreOptions()
        options.seed = 7
        options.walks = 2
        options.steps = 10
        let walked = try AimedExploration(
            world: world, options: options, before: Coverage(model: CheckModesTests.model)
        )
        .run(aimed: false)
        var suite = Coverage(model: CheckModesTests.model)
        suite.add(walked.after.covered(in: band) ?? CoverageTally(), band: band)
        return suite
    }

    @Test("aimed walks cover what unaimed walks with the same budget do not, and their scenarios replay to it")
    func aimedWalksCoverWhatUnaimedOnesDoNot() throws {
        let world = try ExploreTests.world(ExploreTests.example)
        let band = try #require(CheckModesTests.model.band(of: Version(9, 0)))
        let before = try Self.suite(world, band: band)
        var options = ExploreOptions()
        options.walks = 4
        options.steps = 15
        let aimed = try AimedExploration(world: world, options: options, before: before).run()
        let unaimed = try AimedExploration(world: world, options: options, before: before).run(aimed: false)
        let reached = try #require(aimed.after.covered(in: band))
        let reachedUnaimed = try #require(unaimed.after.covered(in: band))
        let onlyAimed = reached.subtracting(reachedUnaimed)
        #expect(!onlyAimed.isEmpty, "aimed: \(reached.items); unaimed: \(reachedUnaimed.items)")
        #expect(reached.items.count > reachedUnaimed.items.count)
        #expect(aimed.events <= options.walks * options.steps)
        #expect(!aimed.walks.isEmpty)
        for walk in aimed.walks {
            // Replayed from the world as its scenario does, the walk exercises what it is said to add.
            var state = try world.start(on: walk.version)
            var replayed = CoverageTally()
            for step in walk.steps {
                let applied = state.apply(step)
                #expect(applied)
                replayed.events.insert(step.event.eventType.name)
            }
            for timeline in state.timelines { for entry in timeline { replayed.add(entry) } }
            for added in walk.added.values { #expect(added.subtracting(replayed).isEmpty, "\(added.items)") }
            let text = world.scenario(titled: "t", version: walk.version, steps: walk.steps, closing: [])
            #expect(text.components(separatedBy: "\n  {").count == 3 + walk.steps.count, "\(text)")
        }
    }
}
