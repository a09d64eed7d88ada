package import LifecycleCore
import LifecycleExplore
import LifecycleHosting
import LifecyclePersistence
package import LifecycleScenarios
package import LifecycleWire

/// An app's recorded inputs replayed on other iOS versions, in process, through the core alone: nothing is
/// stored or changed (`GET /v1/apps/{id}/versions`).
extension Application {
    /// The callbacks of app `id` of `space` when its device's recorded inputs, from its creation, are applied
    /// again to a device of each of `versions` (nil: the first version of each band the model knows,
    /// `ModelBands.known`), side by side (`VersionComparison`, as `check --versions` compares a scenario's
    /// runs). A version whose core refuses an input stops there, and says which. `404` for no such app,
    /// `409 not-exportable` when the recording no longer starts at the device's creation (as an export).
    ///
    /// Its cost is bounded: at most `VersionComparison.maxVersions` versions given (the model's bands by
    /// default), each replaying the one device's recording, at most `--recording-bytes` of inputs.
    package func versions(of id: String, in space: Namespace, on versions: [Version]?) throws(APIError)
        -> VersionComparison
    {
        guard let recorded = try exportedDevices(in: space, app: id, device: nil).first else {
            throw .notFound("no app \(id)")
        }
        var inputs: [JournaledInput] = []
        for record in recorded.records {
            do {
                inputs.append(try JournaledInput(bytes: record))
            } catch {
                throw .notExportable(
                    "device \(recorded.id)'s recording holds an input that no longer reads: \(error)",
                    devices: [recorded.id])
            }
        }
        let chosen = versions ?? ModelBands.known.bands.map(\.from)
        var stopped: [String?] = []
        var callbacks: [[String: [String]]] = []
        for version in chosen {
            let (selectors, stop) = Self.replay(inputs, of: recorded.id, on: version, app: id)
            stopped.append(stop)
            callbacks.append([id: selectors])
        }
        return VersionComparison(versions: chosen, stopped: stopped, callbacks: callbacks)
    }

    /// The selectors of app `app`'s callbacks when `inputs`, a device's from its creation, are applied to a
    /// device of `version`, and where that stopped (nil: every input applied). A realtime clock's inputs carry
    /// the times they were applied at, and are applied at those times again.
    static func replay(_ inputs: [JournaledInput], of id: String, on version: Version, app: String)
        -> (callbacks: [String], stopped: String?)
    {
        var device: Device?
        var callbacks: [String] = []
        func note(_ entries: [TimelineEntry]) {
            for entry in entries where entry.app == app {
                if case .callback(let selector, _, _, _) = entry.body { callbacks.append(selector) }
            }
        }
        for (index, recorded) in inputs.enumerated() {
            var input = recorded
            var answers: RecordedAnswers?
            if case .answered(let inner, let given) = input {
                input = inner
                answers = RecordedAnswers(given)
            }
            do throws(Rejection) {
                switch input {
                case .device(var configuration, _):
                    configuration.iosVersion = version
                    device = try Device(id: id, configuration: configuration)
                case .app(let appID, let configuration):
                    _ = try device?.addApp(id: appID, configuration: configuration)
                case .deleteApp(let appID):
                    try device?.removeApp(id: appID)
                case .events(let target, let now, let events, _, _):
                    if let outcome = try device?.apply(events, app: target, now: now, answering: answers) {
                        note(outcome.entries)
                    }
                case .advance(let now):
                    if let outcome = device?.advance(to: now, answering: answers) { note(outcome.entries) }
                case .answered:
                    break
                }
            } catch {
                return (callbacks, "input \(index + 1) (\(Self.describe(input))): \(error.detail)")
            }
        }
        return (callbacks, nil)
    }

    /// An input as a line of a report names it.
    private static func describe(_ input: JournaledInput) -> String {
        switch input {
        case .device: "the device's creation"
        case .app(let app, _): "the creation of app \(app)"
        case .deleteApp(let app): "the deletion of app \(app)"
        case .events(let target, _, let events, _, _):
            "events " + events.map(\.type).joined(separator: ", ")
                + (target.map { " to app \($0)" } ?? " to the device")
        case .advance: "the clock's advance"
        case .answered(let inner, _): describe(inner)
        }
    }
}
