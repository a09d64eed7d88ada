import Foundation
package import LifecycleCore
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire

/// Walks as scenario steps (docs/SCENARIOS.md): each event a `POST` on its app's or device's path, its body as
/// a client posts it (`EventEncoder`), `${run}` where the world's ids have it; a finding as a scenario that
/// replays it, which `lifecycled check` fails the same way.
extension ExploreWorld {
    /// The members of a step in the order the format's documentation gives them.
    static let stepOrder = [
        "do", "body", "rawBody", "status", "headers", "pluck", "expect", "save", "saveHeaders", "expectHeaders",
    ]

    /// The ids of the world's devices, by index.
    package func deviceIDs(on version: Version?) -> [String] {
        var local = self
        local.daemon = nil
        return ((try? local.start(on: version))?.devices ?? []).map(\.id)
    }

    /// The step that posts `step` as written in a scenario.
    package func written(_ step: WalkStep, devices: [String]) -> JSONValue {
        Self.written(step, deviceID: devices[step.device])
    }

    /// The step that posts `step`, its device's id being `deviceID`.
    static func written(_ step: WalkStep, deviceID: String) -> JSONValue {
        let path = step.app.map { "/v1/apps/\($0)/events" } ?? "/v1/devices/\(deviceID)/events"
        return Self.withRun(
            .object([
                "do": .string("POST \(path)"), "body": ScenarioRunner.escaped(EventEncoder.json(step.event)),
            ]))
    }

    /// `value` with this process's `run` written back as `${run}`.
    static func withRun(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text.replacingOccurrences(of: run, with: "${run}"))
        case .array(let items): .array(items.map(withRun))
        case .object(let members): .object(members.mapValues(withRun))
        default: value
        }
    }

    /// One step as a line: its members in the format's order, the values' keys sorted.
    static func line(_ step: JSONValue) -> String {
        guard case .object(let members) = step else { return String(decoding: JSONWriter.encode(step), as: UTF8.self) }
        var w = JSONWriter(reservingCapacity: 256)
        w.beginObject()
        let known = stepOrder.filter { members[$0] != nil }
        for name in known + members.keys.filter({ !stepOrder.contains($0) }).sorted() {
            w.key(name)
            w.value(members[name]!)
        }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `step` as its scenario step's line.
    package func line(_ step: WalkStep, devices: [String]) -> String { Self.line(written(step, devices: devices)) }

    /// The scenario of a finding: the world's setup (on the walk's version), the shrunk walk's events, and the
    /// property that failed as its one expectation.
    package func scenario(of finding: ExploreFinding, seed: UInt64) -> String {
        let property = propertyLabel(finding.failure.property)
        // A live delegate's assertion is the team's code: the scenario replays the events it found them with.
        let stated =
            properties.indices.contains(finding.failure.property) ? [properties[finding.failure.property].step] : []
        return scenario(
            titled: "\(name): \(property.label) found false by lifecycled explore (seed \(seed), walk \(finding.walk)"
                + (finding.version.map { ", iOS \($0)" } ?? "") + ")",
            version: finding.version, steps: finding.shrunk, closing: stated)
    }

    /// A scenario titled `title`: the world's setup (on `version`), `steps` as posts, then `closing`.
    package func scenario(titled title: String, version: Version?, steps: [WalkStep], closing: [JSONValue]) -> String {
        let devices = deviceIDs(on: version)
        let written = setupSteps(on: version) + steps.map { self.written($0, devices: devices) } + closing
        var head = JSONWriter(reservingCapacity: 256)
        head.beginObject()
        head.key("name")
        head.string(title)
        head.key("source")
        head.string(source)
        head.key("steps")
        let opening = String(decoding: head.bytes, as: UTF8.self)
        return opening + "[\n" + written.map { "  " + Self.line($0) }.joined(separator: ",\n") + "\n]}\n"
    }
}
