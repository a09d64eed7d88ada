package import LifecycleCore
package import LifecycleHosting
import LifecycleJSON
import LifecyclePersistence
import LifecycleScenarios
import LifecycleWire

/// A device as an export reads it under its host's lock: the inputs that replay it and what it shows now,
/// each a copy of the host's value (the lock is held only to copy them; the scenario is written from them).
package struct RecordedDevice {
    var id: String
    var records: [[UInt8]]
    var device: Device
    /// Each app's timeline as retained then: its callbacks, and the seq before its oldest retained entry.
    var timelines: [String: EntryRing]

    package init(id: String, records: [[UInt8]], device: Device, timelines: [String: EntryRing]) {
        self.id = id
        self.records = records
        self.device = device
        self.timelines = timelines
    }
}

/// Recordings written as a scenario (docs/SCENARIOS.md) that replays them: each device's creation requests
/// and every input it accepted, in order, then what it and its apps showed as the expectations.
///
/// A realtime clock is replayed as a manual one: each input is preceded by the `advanceTime` that brings the
/// clock to the time it was applied at, so the callbacks and states are the same (the timeline also holds
/// those `advanceTime` entries, and `seq`s after them move).
package enum ScenarioExport {
    /// The scenario written piece by piece, so that whoever sends it on holds one step at a time: `next()` gives
    /// its head, then each step (with the separator before it), then its end, then nil. The bytes are those of
    /// the scenario's JSON: its members and each step's in the order the format's documentation gives them, a
    /// step per line.
    ///
    /// Each record is decoded twice, one at a time: once by `init` for the order the devices replay in (so a
    /// record that does not decode is found before the first byte), once as its step is written.
    package struct Writer {
        /// The devices in the order they replay in; each lets its copies go once written.
        private var devices: [RecordedDevice]
        /// When set, the apps the expectations are about (their devices are replayed whole: an app's life
        /// depends on its device's and its neighbours').
        private let apps: Set<String>?
        private var head: [UInt8]?
        private var ended = false
        private var written = 0
        /// The device being written, and the next of its records.
        private var device = 0
        private var record = 0
        /// A copy of the device, replayed along, for the time each input found a realtime clock at.
        private var replica: Device?
        /// Once the device's records are written: its expectations not written yet, and its apps whose
        /// expectations are still to make.
        private var expecting: ArraySlice<Step>?
        private var appsLeft: ArraySlice<String> = []
        package init(
            name: String, source: String, namespace: String, devices: [RecordedDevice], apps: Set<String>? = nil
        ) throws {
            var made: [String: (created: Set<String>, deleted: Set<String>)] = [:]
            for device in devices { made[device.id] = try appsMade(by: device) }
            self.devices = inReplayOrder(devices, made: made)
            self.apps = apps
            var w = JSONWriter(reservingCapacity: 1024)
            w.beginObject()
            w.field("name")
            w.string(name)
            w.field("source")
            w.string(source)
            w.field("namespace")
            w.string(namespace)
            w.field("steps")
            head = w.bytes + Array("[".utf8)
        }

        /// The next bytes of the scenario; nil once it is all written.
        package mutating func next() throws -> [UInt8]? {
            if let head {
                self.head = nil
                return head
            }
            while device < devices.count {
                let recorded = devices[device]
                if record < recorded.records.count {
                    let input = try JournaledInput(bytes: recorded.records[record])
                    record += 1
                    if let step = try ScenarioExport.step(replaying: input, of: recorded.id, replica: &replica) {
                        return piece(step)
                    }
                    continue
                }
                if expecting == nil {
                    expecting = [deviceExpectation(of: recorded.device, id: recorded.id)][...]
                    appsLeft = recorded.device.appOrder.filter { apps?.contains($0) ?? true }[...]
                }
                if let step = expecting?.popFirst() { return piece(step) }
                if let app = appsLeft.popFirst() {
                    expecting = appExpectations(of: recorded, app: app)[...]
                    continue
                }
                devices[device].records = []
                devices[device].timelines = [:]
                device += 1
                record = 0
                replica = nil
                expecting = nil
            }
            guard !ended else { return nil }
            ended = true
            return Array("\n]}\n".utf8)
        }

        private mutating func piece(_ step: Step) -> [UInt8] {
            defer { written += 1 }
            return Array((written == 0 ? "\n" : ",\n").utf8) + step.json
        }
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
    static func inReplayOrder(
        _ devices: [RecordedDevice], made: [String: (created: Set<String>, deleted: Set<String>)]
    ) -> [RecordedDevice] {
        let created = made.mapValues(\.created)
        let deleted = made.mapValues(\.deleted)
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

    /// The apps a device's recording creates and deletes, its records decoded one at a time.
    private static func appsMade(by device: RecordedDevice) throws -> (created: Set<String>, deleted: Set<String>) {
        var made: (created: Set<String>, deleted: Set<String>) = ([], [])
        for record in device.records {
            switch try JournaledInput(bytes: record) {
            case .app(let app, _): made.created.insert(app)
            case .deleteApp(let app): made.deleted.insert(app)
            default: break
            }
        }
        return made
    }

    /// The request that replays one input of device `id`, in the order they came, from its creation; nil for
    /// an input that needs none. `replica` is a copy of the device replayed along, for the time each input
    /// found a realtime clock at.
    /// `answers`: what live delegates answered during the input (LIFECYCLE §13), written with its events.
    private static func step(
        replaying input: JournaledInput, of id: String, replica: inout Device?, answers: [CallbackAnswer]? = nil
    ) throws -> Step? {
        switch input {
        case .device(let configuration, _):
            if configuration.clockMode == .realtime { replica = try Device(id: id, configuration: configuration) }
            return step(
                "POST /v1/devices", body: ConfigurationEncoder.device(id: id, configuration, clockMode: .manual),
                status: 201)
        case .app(let app, let configuration):
            try replica?.addApp(id: app, configuration: configuration)
            return step(
                "POST /v1/apps", body: ConfigurationEncoder.app(id: app, device: id, configuration), status: 201)
        case .deleteApp(let app):
            try replica?.removeApp(id: app)
            return step("DELETE /v1/apps/\(app)", status: 204)
        case .events(let app, let now, let events, let key, _):
            var body = events.map(EventEncoder.json)
            if let gap = try catchUp(&replica, to: now) { body.insert(gap, at: 0) }
            _ = try replica?.apply(events, app: app, now: now, answering: answers.map { RecordedAnswers($0) })
            let path = app.map { "/v1/apps/\($0)/events" } ?? "/v1/devices/\(id)/events"
            var headers: [String: JSONValue] = [:]
            if let key { headers["Idempotency-Key"] = .string(key) }
            return step("POST \(path)", body: answered(.array(body), answers), headers: headers)
        case .advance(let now):
            let gap = try catchUp(&replica, to: now)
            _ = replica?.advance(to: now, answering: answers.map { RecordedAnswers($0) })
            // A deadline that asked a live delegate is replayed with its answers even with no time to catch up.
            let zero: JSONValue? = answers == nil ? nil : EventEncoder.json(.advanceTime(seconds: 0))
            guard let gap = gap ?? zero else { return nil }
            return step("POST /v1/devices/\(id)/events", body: answered(.array([gap]), answers))
        case .answered(let input, let given):
            return try step(replaying: input, of: id, replica: &replica, answers: given)
        }
    }

    /// An events POST's body with the answers live delegates gave during it: `{"events", "answers"}`.
    private static func answered(_ events: JSONValue, _ answers: [CallbackAnswer]?) -> JSONValue {
        guard let answers else { return events }
        return .object(["events": events, "answers": .array(answers.map(LiveAnswerEncoder.json))])
    }

    /// The `advanceTime` event that brings a realtime replica's clock to `now`, if it is behind.
    private static func catchUp(_ replica: inout Device?, to now: Double) throws -> JSONValue? {
        guard let time = replica?.time, now > time else { return nil }
        return EventEncoder.json(.advanceTime(seconds: now - time))
    }

    /// What the device showed: its front app, lock and (manual clock) time.
    private static func deviceExpectation(of device: Device, id: String) -> Step {
        var deviceState: [String: JSONValue] = [
            "foregroundApp": device.foregroundApp.map(JSONValue.string) ?? .null, "locked": .bool(device.locked),
        ]
        if device.configuration.clockMode == .manual { deviceState["time"] = .number(device.time) }
        return step("GET /v1/devices/\(id)", expect: .object(deviceState))
    }

    /// What an app showed: its state and its callbacks, page by page from its oldest retained one.
    private static func appExpectations(of recorded: RecordedDevice, app: String) -> [Step] {
        let device = recorded.device
        let manual = device.configuration.clockMode == .manual
        guard let instance = device.app(app) else { return [] }
        var steps = [step("GET /v1/apps/\(app)", expect: ["state": .string(instance.state.rawValue)])]
        let ring = recorded.timelines[app]
        let evictedThrough = ring?.evictedThrough ?? 0
        let callbacks = (ring?.page(after: 0, limit: .max) { $0.isCallback } ?? []).compactMap(\.entry)
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
