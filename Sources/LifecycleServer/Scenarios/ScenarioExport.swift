import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire

/// A device as an export reads it under its host's lock: the inputs that replay it and what it shows now.
struct RecordedDevice {
    var id: String
    var records: [[UInt8]]
    var device: Device
    /// Each app's callbacks as its timeline retains them, and the seq before its oldest retained entry.
    var callbacks: [String: (evictedThrough: UInt64, entries: [RetainedEntry])]
}

/// Recordings written as a scenario (docs/SCENARIOS.md) that replays them: each device's creation requests
/// and every input it accepted, in order, then what it and its apps showed as the expectations.
///
/// A realtime clock is replayed as a manual one: each input is preceded by the `advanceTime` that brings the
/// clock to the time it was applied at, so the callbacks and states are the same (the timeline also holds
/// those `advanceTime` entries, and `seq`s after them move).
enum ScenarioExport {
    /// The scenario. `apps`, when set, limits the expectations to those apps (their devices are replayed whole:
    /// an app's life depends on its device's and its neighbours').
    /// The scenario's JSON: its members and each step's in the order the format's documentation gives them,
    /// a step per line.
    static func scenario(
        name: String, source: String, namespace: String, devices: [RecordedDevice], apps: Set<String>? = nil
    ) throws -> [UInt8] {
        var inputs: [String: [JournaledInput]] = [:]
        for device in devices {
            inputs[device.id] = try device.records.map { try JournaledInput(bytes: $0, version1: JournalRecordVersion1.entry) }
        }
        var steps: [Step] = []
        for device in inReplayOrder(devices, inputs: inputs) {
            steps += try replay(device, inputs: inputs[device.id] ?? [])
            steps += expectations(of: device, apps: apps)
        }
        var w = JSONWriter(reservingCapacity: 1024 + steps.count * 128)
        w.beginObject()
        w.field("name")
        w.string(name)
        w.field("source")
        w.string(source)
        w.field("namespace")
        w.string(namespace)
        w.field("steps")
        var out = w.bytes + Array("[".utf8)
        for (index, step) in steps.enumerated() {
            out += Array((index == 0 ? "\n" : ",\n").utf8)
            out += step.json
        }
        out += Array("\n]}\n".utf8)
        return out
    }

    /// A step's members, in the documented order.
    struct Step {
        var members: [(String, JSONValue)]

        var json: [UInt8] {
            var w = JSONWriter(reservingCapacity: 128)
            w.beginObject()
            for (name, value) in members {
                w.key(name)
                w.value(value)
            }
            w.endObject()
            return w.bytes
        }
    }

    /// The devices by id, except that one which deleted an app id another created afterwards comes before it
    /// (each device is replayed whole, one after the other, and an app id is unique in a namespace). Devices
    /// that would have to come before each other stay in id order: their import fails, naming the app.
    static func inReplayOrder(_ devices: [RecordedDevice], inputs: [String: [JournaledInput]]) -> [RecordedDevice] {
        var created: [String: Set<String>] = [:]
        var deleted: [String: Set<String>] = [:]
        for device in devices {
            for input in inputs[device.id] ?? [] {
                switch input {
                case .app(let app, _): created[device.id, default: []].insert(app)
                case .deleteApp(let app): deleted[device.id, default: []].insert(app)
                default: break
                }
            }
        }
        var remaining = devices.sorted { $0.id < $1.id }
        var ordered: [RecordedDevice] = []
        while !remaining.isEmpty {
            // The first (by id) that no other remaining device must precede.
            let next =
                remaining.firstIndex { device in
                    !remaining.contains { other in
                        other.id != device.id
                            && !(deleted[other.id] ?? []).isDisjoint(with: created[device.id] ?? [])
                    }
                } ?? 0
            ordered.append(remaining.remove(at: next))
        }
        return ordered
    }

    /// The requests that rebuild the device from its creation.
    private static func replay(_ recorded: RecordedDevice, inputs: [JournaledInput]) throws -> [Step] {
        var steps: [Step] = []
        // A copy of the device, replayed along, for the time each input found a realtime clock at.
        var replica: Device?
        let id = recorded.id
        for input in inputs {
            switch input {
            case .device(let configuration, _):
                if configuration.clockMode == .realtime { replica = try Device(id: id, configuration: configuration) }
                steps.append(
                    step("POST /v1/devices", body: ConfigurationEncoder.device(id: id, configuration, clockMode: .manual),
                        status: 201))
            case .app(let app, let configuration):
                try replica?.addApp(id: app, configuration: configuration)
                steps.append(step("POST /v1/apps", body: ConfigurationEncoder.app(id: app, device: id, configuration), status: 201))
            case .deleteApp(let app):
                try replica?.removeApp(id: app)
                steps.append(step("DELETE /v1/apps/\(app)", status: 204))
            case .events(let app, let now, let events, let key, _):
                var body = events.map(EventEncoder.json)
                if let gap = try catchUp(&replica, to: now) { body.insert(gap, at: 0) }
                _ = try replica?.apply(events, app: app, now: now)
                let path = app.map { "/v1/apps/\($0)/events" } ?? "/v1/devices/\(id)/events"
                var headers: [String: JSONValue] = [:]
                if let key { headers["Idempotency-Key"] = .string(key) }
                steps.append(step("POST \(path)", body: .array(body), headers: headers))
            case .advance(let now):
                if let gap = try catchUp(&replica, to: now) {
                    _ = replica?.advance(to: now)
                    steps.append(step("POST /v1/devices/\(id)/events", body: .array([gap])))
                }
            }
        }
        return steps
    }

    /// The `advanceTime` event that brings a realtime replica's clock to `now`, if it is behind.
    private static func catchUp(_ replica: inout Device?, to now: Double) throws -> JSONValue? {
        guard let time = replica?.time, now > time else { return nil }
        return EventEncoder.json(.advanceTime(seconds: now - time))
    }

    /// What the device and its apps showed: the device's front app, lock and (manual clock) time, each app's
    /// state and its callbacks, page by page from its oldest retained one.
    private static func expectations(of recorded: RecordedDevice, apps: Set<String>?) -> [Step] {
        let device = recorded.device
        let manual = device.configuration.clockMode == .manual
        var deviceState: [String: JSONValue] = [
            "foregroundApp": device.foregroundApp.map(JSONValue.string) ?? .null, "locked": .bool(device.locked),
        ]
        if manual { deviceState["time"] = .number(device.time) }
        var steps = [step("GET /v1/devices/\(recorded.id)", expect: .object(deviceState))]
        for app in device.appOrder where apps?.contains(app) ?? true {
            guard let instance = device.app(app) else { continue }
            steps.append(step("GET /v1/apps/\(app)", expect: ["state": .string(instance.state.rawValue)]))
            let (evictedThrough, entries) = recorded.callbacks[app] ?? (0, [])
            let callbacks = entries.compactMap(\.entry)
            let selectors = callbacks.map { entry -> String in
                if case .callback(let selector, _, _, _) = entry.body { return selector }
                return ""
            }
            if manual {
                // Seqs replay as they were: the pages of the same entries.
                var after = evictedThrough
                var start = 0
                repeat {
                    let page = selectors[start..<min(start + PageQuery.maxLimit, selectors.count)]
                    steps.append(
                        step(
                            "GET /v1/apps/\(app)/callbacks?after=\(after)&limit=\(PageQuery.maxLimit)",
                            expect: .array(page.map(JSONValue.string)), pluck: "items[].selector"))
                    start += page.count
                    if start < callbacks.count { after = callbacks[start - 1].seq }
                } while start < selectors.count
            } else if evictedThrough == 0, selectors.count <= PageQuery.maxLimit {
                // The inserted advanceTime entries move seqs: only a whole list of callbacks is comparable.
                steps.append(
                    step(
                        "GET /v1/apps/\(app)/callbacks?limit=\(PageQuery.maxLimit)",
                        expect: .array(selectors.map(JSONValue.string)), pluck: "items[].selector"))
            }
        }
        return steps
    }

    private static func step(
        _ action: String, body: JSONValue? = nil, headers: [String: JSONValue] = [:], status: Int? = nil,
        expect: JSONValue? = nil, pluck: String? = nil
    ) -> Step {
        var step: [(String, JSONValue)] = [("do", .string(action))]
        if !headers.isEmpty { step.append(("headers", .object(headers))) }
        if let body { step.append(("body", body)) }
        if let status { step.append(("status", .number(Double(status)))) }
        if let pluck { step.append(("pluck", .string(pluck))) }
        if let expect { step.append(("expect", expect)) }
        // The runner substitutes `${…}` in every string of a step: the client's own `${` is written `$${`.
        return Step(members: step.map { ($0.0, ScenarioRunner.escaped($0.1)) })
    }
}
