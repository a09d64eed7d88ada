import Foundation
import LifecycleCore
import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios
import Testing

/// `examples/explore/background-task.json` and worlds made in the tests: the walks, their determinism, the
/// properties, shrinking and the scenario written.
@Suite struct ExploreTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func world(_ file: String) throws -> ExploreWorld {
        let bytes = Array(try Data(contentsOf: root.appendingPathComponent(file)))
        let scenario = try ScenarioFormat.scenario(file: file, bytes: bytes)
        return try ExploreWorld(
            scenario: scenario, source: (try JSONParser.parse(bytes))["source"]?.stringValue ?? "")
    }

    static func world(steps: String, name: String = "test") throws -> ExploreWorld {
        let text = #"{"name": "\#(name)", "source": "LIFECYCLE §6", "steps": [\#(steps)]}"#
        return try ExploreWorld(scenario: ScenarioFormat.scenario(file: name, bytes: Array(text.utf8)), source: "s")
    }

    static let example = "examples/explore/background-task.json"

    /// Every walk's events as their scenario lines.
    static func walks(_ world: ExploreWorld, _ options: ExploreOptions) throws -> String {
        let explorer = Explorer(world: world, options: options)
        let report = try explorer.run(keepingWalks: true)
        var text = ""
        for (index, walk) in report.walkSteps.enumerated() {
            let devices = world.deviceIDs(on: explorer.version(of: index))
            text += "walk \(index)\n" + walk.map { world.line($0, devices: devices) + "\n" }.joined()
        }
        return text
    }

    @Test func theSameSeedGivesTheSameWalksByteForByte() throws {
        let world = try Self.world(Self.example)
        var options = ExploreOptions()
        options.walks = 12
        options.steps = 40
        options.versions = [Version(9, 0), Version(13, 0)]
        options.everyStep = false
        let first = try Self.walks(world, options)
        #expect(try Self.walks(world, options) == first)
        #expect(first.split(separator: "\n").count > 12 * 20, "the walks are walks, not refusals")
        options.seed = 2
        #expect(try Self.walks(world, options) != first)
    }

    @Test func theWalksDrawEveryKindOfEventFromTheCatalogue() throws {
        let world = try Self.world(Self.example)
        var options = ExploreOptions()
        options.walks = 40
        options.steps = 60
        options.everyStep = false
        let report = try Explorer(world: world, options: options).run(keepingWalks: true)
        let types = Set(report.walkSteps.joined().map(\.event.eventType))
        for wanted: EventType in [
            .launch, .homeButton, .advanceTime, .interruptionBegan, .reboot, .memoryPressure,
            .lock, .remoteNotification,
        ] {
            #expect(types.contains(wanted), "\(wanted) is drawn")
        }
        #expect(types.count > EventType.allCases.count / 2, "\(types.count) types drawn")
    }

    @Test func theExamplesPropertyHoldsOnIOS9AndBreaksOnIOS17ShrunkToAFewSteps() throws {
        let world = try Self.world(Self.example)
        var options = ExploreOptions()
        options.walks = 60
        options.versions = [Version(9, 0)]
        #expect(try Explorer(world: world, options: options).run().failure == nil, "180 s of budget: it ends at 40")
        options.versions = [Version(17, 0)]
        let finding = try #require(try Explorer(world: world, options: options).run().failure)
        #expect(finding.shrunk.count <= 3, "\(finding.shrunk)")
        #expect(finding.shrunk.count < finding.steps.count || finding.steps.count <= 3)
        #expect(finding.shrunk.contains { if case .advanceTime = $0.event { true } else { false } })
        #expect(finding.failure.message.contains("expected no item matching"), "\(finding.failure.message)")
        // The scenario written is one of the format, and holds the world, the shrunk walk and the property.
        let text = world.scenario(of: finding, seed: options.seed)
        let scenario = try ScenarioFormat.scenario(file: "found.json", bytes: Array(text.utf8))
        #expect(scenario.steps.count == world.setup.count + finding.shrunk.count + 1)
        #expect(text.contains(#""iosVersion":"17.0""#) && text.contains("a-${run}"), "\(text)")
    }

    @Test func shrinkingDeletesEventsAndMakesValuesSimpler() throws {
        // A property any advance of 100 s or more breaks: a walk shrinks to that one event, of 100 s exactly.
        let world = try Self.world(
            steps: #"""
                {"do": "POST /v1/devices", "body": {"id": "d-${run}"}},
                {"do": "POST /v1/apps", "body": {"id": "a-${run}", "device": "d-${run}", "bundleId": "b"}},
                {"do": "GET /v1/devices/d-${run}/timeline?limit=1000", "pluck": "items[]",
                 "expect": {"$none": {"event": "advanceTime", "detail": {"seconds": {"$gte": 100}}}}}
                """#)
        var options = ExploreOptions()
        options.walks = 50
        let finding = try #require(try Explorer(world: world, options: options).run().failure)
        #expect(finding.shrunk.count == 1, "\(finding.shrunk)")
        #expect(finding.shrunk.first?.event == .advanceTime(seconds: 100), "simplest time: \(finding.shrunk)")
    }

    @Test func whatExploreCannotRunIsNamed() throws {
        let realtime = #"""
            {"do": "POST /v1/devices", "body": {"id": "d", "clock": {"mode": "realtime"}}},
            {"do": "POST /v1/apps", "body": {"id": "a", "device": "d", "bundleId": "b"}},
            {"do": "GET /v1/apps/a/callbacks", "expect": {"$any": true}}
            """#
        #expect(throws: ExploreError.self) { _ = try Self.world(steps: realtime).start(on: nil) }
        do {
            _ = try Self.world(steps: realtime).start(on: nil)
        } catch {
            #expect("\(error)".contains("manual clock"), "\(error)")
        }
        let noProperty = #"{"do": "POST /v1/devices", "body": {"id": "d"}}"#
        #expect(throws: ExploreError.self) { _ = try Self.world(steps: noProperty) }
        let otherRead = #"{"do": "GET /v1/apps/a", "expect": {"state": "active"}}"#
        do {
            _ = try Self.world(steps: otherRead)
            Issue.record("a snapshot read is not one explore answers")
        } catch {
            #expect("\(error)".contains("GET /v1/apps/{id}/callbacks"), "\(error)")
        }
        let delete = #"{"do": "DELETE /v1/apps/a"}, {"do": "GET /v1/apps/a/callbacks", "expect": []}"#
        #expect(throws: ExploreError.self) { _ = try Self.world(steps: delete) }
    }
}
