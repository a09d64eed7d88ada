package import LifecycleCore
import LifecycleJSON
package import LifecycleScenarios

/// What a suite of scenarios exercised, per OS band of the model (`ModelBands`), out of what the model can
/// produce there: `lifecycled check --coverage` (docs/TESTING.md, "Coverage").
package struct Coverage: Sendable {
    package let model: ModelBands
    /// What the suite exercised, by band index.
    package private(set) var exercised: [Int: CoverageTally] = [:]
    /// Devices whose `iosVersion` the reader could not place.
    package private(set) var unplaced = 0

    package init(model: ModelBands) { self.model = model }

    /// One scenario's namespace as it left it, and the events it posted (`path`, as sent, and the `type`s of
    /// the body, for each answered 2xx).
    package mutating func add(_ contents: NamespaceContents, posted: [(path: String, types: [String])]) {
        var bandOfDevice: [String: Int] = [:]
        var deviceOfApp: [String: String] = [:]
        for device in contents.devices {
            var tally = CoverageTally()
            for entry in device.timeline { tally.add(entry) }
            guard let band = add(iosVersion: device.iosVersion, tally) else { continue }
            bandOfDevice[device.id] = band
            for app in device.apps { deviceOfApp[app] = device.id }
        }
        for (path, types) in posted {
            let parts = path.split(separator: "?")[0].split(separator: "/").map(String.init)
            guard parts.count >= 4, parts.last == "events" else { continue }
            let (collection, id) = (parts[parts.count - 3], parts[parts.count - 2])
            let device = collection == "apps" ? deviceOfApp[id] : id
            guard let band = device.flatMap({ bandOfDevice[$0] }) else { continue }
            exercised[band, default: CoverageTally()].events.formUnion(types)
        }
    }

    /// What one device on `iosVersion` exercised, counted in its band; its band, or nil (counted as unplaced)
    /// when the model knows no band of that version.
    @discardableResult
    package mutating func add(iosVersion: String, _ tally: CoverageTally) -> Int? {
        guard let version = Version(iosVersion), let band = model.band(of: version) else {
            unplaced += 1
            return nil
        }
        exercised[band, default: CoverageTally()].formUnion(tally)
        return band
    }

    /// What was exercised on band `band` (nil: a version no band holds), as far as known now.
    package func covered(in band: Int?) -> CoverageTally? {
        band.map { exercised[$0] ?? CoverageTally() }
    }

    /// What walks exercised on band `band` (an aimed exploration's), added to the suite's.
    package mutating func add(_ tally: CoverageTally, band: Int) {
        exercised[band, default: CoverageTally()].formUnion(tally)
    }

    /// The event types of an events request's body: one event object or an array of them.
    package static func types(of body: JSONValue) -> [String] {
        switch body {
        case .array(let items): items.compactMap { $0["type"]?.stringValue }
        default: body["type"]?.stringValue.map { [$0] } ?? []
        }
    }

    /// A band's universe: what the model's exploration produced there and anything the suite exercised beyond it.
    package func universe(of band: Int) -> CoverageTally {
        var universe = model.bands[band].universe
        if let seen = exercised[band] { universe.formUnion(seen) }
        return universe
    }

    /// The bands the suite ran on, oldest first.
    package var bandsRun: [Int] { exercised.keys.sorted() }

    /// The report as text: per band the suite ran on, each kind's count out of the universe and what is missing.
    package func text() -> String {
        var lines: [String] = []
        if bandsRun.isEmpty { lines.append("coverage: the suite left no device to read") }
        for band in bandsRun {
            let seen = exercised[band] ?? CoverageTally()
            let universe = universe(of: band)
            lines.append("iOS \(model.bands[band].label):")
            for kind in CoverageTally.kinds {
                let all = universe[keyPath: kind.path]
                let covered = seen[keyPath: kind.path]
                let percent = all.isEmpty ? 100 : covered.count * 100 / all.count
                var line =
                    "  \(kind.name): \(covered.count) of \(all.count) (\(percent)%)"
                let missing = all.subtracting(covered).sorted()
                if !missing.isEmpty { line += "; not exercised: " + missing.joined(separator: ", ") }
                lines.append(line)
            }
        }
        lines.append(
            "bands of the model: " + model.bands.map(\.label).joined(separator: ", ")
                + "; each band's universe: what \(ModelBands.walks) seeded walks of \(ModelBands.steps) events of "
                + "its probe apps produce, with what the suite did beyond it")
        if unplaced > 0 { lines.append("\(unplaced) device(s) had no iosVersion the model knows") }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON: `bands`, each with its versions and, per kind, `covered`, `total` and `missing`;
    /// `modelBands`, every band of the model; `unplaced`, the devices of no band's version.
    package func json() -> String {
        var w = JSONWriter(reservingCapacity: 4096)
        w.beginObject()
        w.field("bands")
        w.beginArray()
        for band in bandsRun {
            let seen = exercised[band] ?? CoverageTally()
            let universe = universe(of: band)
            w.beginObject()
            w.field("from")
            w.string(model.bands[band].from.description)
            w.field("until")
            if let until = model.bands[band].until { w.string(until.description) } else { w.null() }
            for kind in CoverageTally.kinds {
                let all = universe[keyPath: kind.path]
                let covered = seen[keyPath: kind.path]
                w.key(kind.key)
                w.beginObject()
                w.field("covered")
                w.int(covered.count)
                w.field("total")
                w.int(all.count)
                w.field("exercised")
                w.beginArray()
                for name in covered.sorted() { w.string(name) }
                w.endArray()
                w.field("missing")
                w.beginArray()
                for name in all.subtracting(covered).sorted() { w.string(name) }
                w.endArray()
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
        w.field("modelBands")
        w.beginArray()
        for band in model.bands { w.string(band.label) }
        w.endArray()
        w.field("unplaced")
        w.int(unplaced)
        w.field("universe")
        w.string(
            "per band, what \(ModelBands.walks) seeded walks of \(ModelBands.steps) events of the probe apps produce "
                + "on its first version, with what the suite did beyond it")
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
