import Foundation
package import LifecycleCore
import LifecycleJSON
package import LifecycleScenarios
import LifecycleWire

/// An app described as in a scenario file (docs/SCENARIOS.md), to explore: the steps that build it (its device's
/// and its own creation, and any events posted before the walks begin) and the properties to hold it to (the
/// files' reads that have an `expect`), each as written. docs/EXPLORE.md.
package struct ExploreWorld: Sendable {
    /// The scenario the world comes from: its name and `source`, for the scenarios written from a walk.
    package var name: String
    package var source: String
    /// The steps that build the world, as written (`${run}` in them).
    package var setup: [JSONValue]
    package var properties: [Property]
    /// A daemon the walks run on too (`ExploreDaemon`); nil: in this process only.
    package var daemon: ExploreDaemon?
    /// The delegate of each live app (`delegate: {"live": true}`), made afresh for each walk, given the app's id
    /// as written (`${run}` in it); nil for an app it has none for, which explore refuses.
    package var live: (@Sendable (String) -> LiveAnswerer?)?

    /// What `${run}` stands for in this process: the written ids are found in the core's by it, and an event's
    /// ids are written back with `${run}` in its place.
    package static let run = "explore0run"

    /// The reads a property may make (what `WorldReads` answers).
    package static let reads =
        "GET /v1/apps/{id}/callbacks, GET /v1/apps/{id}/timeline and GET /v1/devices/{id}/timeline "
        + "(with after, limit and session)"

    /// A read of a scenario that has an `expect`: it must hold after each step of a walk (or at its end).
    package struct Property: Sendable {
        /// `FILE steps[N]`, as the format's problems name a step.
        package var label: String
        package var step: JSONValue
    }

    /// The world of `scenario` (its `POST` steps, in order) and the properties of it and of `properties` (their
    /// `GET` steps with an `expect`). Throws for a step explore cannot run, naming it and what it can.
    /// `live`: the live apps' delegates, whose own assertions are a property (so the files may state none);
    /// `needingProperty` false: none is needed (walks aimed at coverage).
    package init(
        scenario: Scenario, source: String, properties: [Scenario] = [],
        live: (@Sendable (String) -> LiveAnswerer?)? = nil, needingProperty: Bool = true
    ) throws(ExploreError) {
        self.live = live
        name = scenario.name
        self.source = source
        setup = []
        self.properties = []
        for file in [scenario] + properties {
            for (index, step) in file.steps.enumerated() {
                let label = "\(file.file) steps[\(index)]"
                guard let action = step["do"]?.stringValue, let space = action.firstIndex(of: " ") else {
                    throw ExploreError("\(label): explore runs requests only, not a pause")
                }
                let method = action[..<space]
                let path = String(action[action.index(after: space)...])
                if method == "GET" {
                    guard step["expect"] != nil else { continue }
                    let substituted = try Self.substituted(step, at: label)
                    guard let target = substituted["do"]?.stringValue?.split(separator: " ").last,
                        ReadRoute(String(target)) != nil
                    else {
                        throw ExploreError("\(label): explore answers \(Self.reads) in process, not \(path)")
                    }
                    self.properties.append(Property(label: label, step: step))
                } else if method == "POST", file.file == scenario.file, SetupRoute(path) != nil {
                    setup.append(step)
                } else {
                    throw ExploreError(
                        "\(label): \(action) is not a step explore runs: the world file's POST /v1/devices, "
                            + "POST /v1/apps and POST .../events, and any file's reads with an expect (\(Self.reads))")
                }
            }
        }
        if live == nil, let app = setup.first(where: { $0["body"]?["delegate"]?["live"] == .bool(true) }) {
            let id = app["body"]?["id"]?.stringValue ?? "made by \(app["do"]?.stringValue ?? "")"
            throw ExploreError("app \(id) is live: explore needs its delegate (docs/EXPLORE.md, \"Live delegates\")")
        }
        guard !self.properties.isEmpty || live != nil || !needingProperty else {
            throw ExploreError(
                "no property: give a read with an expect (\(Self.reads)) in the scenario or in a --property file")
        }
    }

    /// A world of these setup steps and no property: what a probe of the model walks (`ModelBands`).
    package init(name: String, source: String, setup: [JSONValue]) {
        self.name = name
        self.source = source
        self.setup = setup
        properties = []
    }

    /// A written step with `${run}` replaced by this process's `run`.
    static func substituted(_ step: JSONValue, at label: String) throws(ExploreError) -> JSONValue {
        do {
            return try ScenarioRunner.substitute(step, ["run": .string(run)])
        } catch {
            throw ExploreError("\(label): \(error.description)")
        }
    }

    /// The setup steps as a walk starts from them, each device on `version` (nil: the one its step gives).
    package func setupSteps(on version: Version?) -> [JSONValue] {
        guard let version else { return setup }
        return Scenario.onVersion(setup, version.description)
    }

    /// The label of property `index`, and its request; the live delegates' assertions past the files' own.
    package func propertyLabel(_ index: Int) -> (label: String, request: String) {
        guard properties.indices.contains(index) else { return ("the live delegates' assertions", "in process") }
        return (properties[index].label, properties[index].step["do"]?.stringValue ?? "")
    }

    /// The world built, as a daemon would build it from the setup steps (its decoders and the core), and on the
    /// daemon when there is one.
    package func start(on version: Version?) throws(ExploreError) -> WorldState {
        var state = WorldState()
        for (index, written) in setupSteps(on: version).enumerated() {
            let label = "setup step \(index + 1) (\(written["do"]?.stringValue ?? ""))"
            let step = try Self.substituted(written, at: label)
            let path = String(step["do"]?.stringValue?.split(separator: " ").last ?? "")
            let body = step["body"] ?? .null
            do throws(APIError) {
                switch SetupRoute(path) {
                case .devices?:
                    let request = try DeviceRequest(body)
                    guard let id = request.id else { throw .invalidField("id", "explore needs the device's id") }
                    guard request.configuration.clockMode == .manual else {
                        throw .invalidField(
                            "clock.mode", "explore moves time with advanceTime: give the device a manual clock")
                    }
                    do throws(Rejection) {
                        state.devices.append(try Device(id: id, configuration: request.configuration))
                    } catch {
                        throw APIError(error)
                    }
                    state.timelines.append([])
                case .apps?:
                    let request = try AppRequest(body)
                    guard let id = request.id, let device = request.device,
                        let at = state.devices.firstIndex(where: { $0.id == device })
                    else { throw .invalidField("device", "explore needs the app's id and its device's, made before") }
                    do throws(Rejection) {
                        try state.devices[at].addApp(id: id, configuration: request.configuration)
                    } catch {
                        throw APIError(error)
                    }
                    if request.configuration.delegate.isLive {
                        let written = id.replacingOccurrences(of: Self.run, with: "${run}")
                        guard daemon == nil else {
                            throw .invalidField(
                                "delegate.live", "app \(written) is live: live delegates are explored in process only")
                        }
                        guard let live, live(written) != nil else {
                            throw .invalidField(
                                "delegate.live", "app \(written) is live: explore needs its delegate (docs/EXPLORE.md)")
                        }
                        if state.live == nil { state.live = LiveAnswerers() }
                        state.live?.add(id) { live(written)! }
                    }
                case .events(let target, let isDevice)?:
                    let events = try EventDecoder.decode(body, deviceOnly: isDevice)
                    guard let at = state.device(holding: target, isDevice: isDevice) else {
                        throw .notFound("no \(isDevice ? "device" : "app") \(target)")
                    }
                    for event in events {
                        guard state.apply(WalkStep(device: at, app: isDevice ? nil : target, event: event)) else {
                            throw .invalidField("body", "the core refuses \(event.type) here")
                        }
                    }
                case nil:
                    break
                }
            } catch {
                throw ExploreError("\(label): \(error.detail)")
            }
        }
        guard state.devices.contains(where: { !$0.appOrder.isEmpty }) else {
            throw ExploreError("the scenario makes no app: explore walks a device with at least one app")
        }
        if let daemon {
            try daemon.start(setupSteps(on: version))
            state.daemon = daemon
        }
        return state
    }
}

/// The paths of the steps that build a world.
enum SetupRoute {
    case devices, apps
    case events(String, isDevice: Bool)

    init?(_ path: String) {
        let parts = path.split(separator: "?").first.map { $0.split(separator: "/").map(String.init) } ?? []
        switch parts.count {
        case 2 where parts == ["v1", "devices"]: self = .devices
        case 2 where parts == ["v1", "apps"]: self = .apps
        case 4 where parts[3] == "events" && (parts[1] == "apps" || parts[1] == "devices"):
            self = .events(parts[2], isDevice: parts[1] == "devices")
        default: return nil
        }
    }
}
