import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

extension LifecycleService {
    /// `GET .../export` (`?app=ID` or `?device=ID` for one; both: that app, which must be on that device): the
    /// namespace as a scenario that replays it (`ScenarioExport`), written as it is read by an `ExportJob`.
    /// `409 not-exportable` names the devices whose recordings no longer start at their creation
    /// (`--recording-bytes`); `429 too-many-requests` when the daemon or the namespace runs as many as it may.
    /// Here, on the HTTP thread, each device's lock is held only to copy its values.
    func exportScenario(_ scope: RequestScope, _ request: HTTPRequest, _ done: AnswerSink) throws(APIError) {
        let app = request.query["app"]
        let deviceID = request.query["device"]
        for (name, value) in [("app", app), ("device", deviceID)] where value?.isEmpty == true {
            throw .invalidField(name, "\(name) names one to export: an id, not an empty string")
        }
        if let format = request.query["format"], format != "scenario" {
            throw .invalidField(
                "format", "format must be scenario, the one format an export has", allowed: ["scenario"])
        }
        let hosts: [DeviceHost]
        if let app {
            let host = try appHost(scope, app)
            // With both, the app is exported, and must be on that device.
            if let deviceID, host.id != deviceID { throw .notFound("no app \(app) on device \(deviceID)") }
            hosts = [host]
        } else if let deviceID {
            hosts = [try device(scope, deviceID)]
        } else {
            hosts = scope.registry.allDevices().sorted { $0.id < $1.id }
        }
        var recorded: [RecordedDevice] = []
        var unrecorded: [String] = []
        for host in hosts {
            let read = host.shared.withLock { shared -> RecordedDevice? in
                guard !shared.gone, shared.recording.complete else { return nil }
                // The state its inputs made, not a realtime clock's reading now (`current`): deadlines that passed
                // since are in no input yet, and the replay must end where the expectations say.
                return RecordedDevice(
                    id: host.id, records: shared.recording.records, device: shared.device,
                    timelines: shared.appTimelines)
            }
            if let read { recorded.append(read) } else if !host.shared.withLock(\.gone) { unrecorded.append(host.id) }
        }
        if !unrecorded.isEmpty {
            throw .notExportable(
                "these devices accepted more than \(options.recordingBytes) bytes of inputs (--recording-bytes), gave "
                    + "their recording up to the daemon's budget (--memory-bytes), or were saved before their "
                    + "inputs were recorded, so no scenario replays them from their creation: "
                    + unrecorded.joined(separator: ", "),
                devices: unrecorded)
        }
        // A scenario has at least one step: an empty namespace (or one emptied meanwhile) has nothing to export.
        if recorded.isEmpty {
            throw .notExportable(
                "the namespace \(scope.space.name) holds no device: there is nothing to replay, and a scenario has "
                    + "at least one step", devices: [])
        }
        let namespace = scope.space.name
        let slot = try exports.take(namespace)
        let what = app.map { "app \($0)" } ?? deviceID.map { "device \($0)" } ?? "namespace \(namespace)"
        let source = "GET \(scope.path("/export")) (lifecycled \(BuildInfo.version))"
        let file = app ?? deviceID ?? namespace
        let headers = [
            (name: "Content-Type", value: "application/json"),
            (name: "Content-Disposition", value: "attachment; filename=\"\(file).scenario.json\""),
        ]
        ExportJob.start(
            slot: slot, bufferBytes: options.exportBufferBytes, headers: headers, logger: logger,
            make: { [recorded] in
                try ScenarioExport.Writer(
                    name: "Export of \(what)", source: source, namespace: namespace, devices: recorded,
                    apps: app.map { [$0] }, version1: JournalRecordVersion1.entry)
            }, done: done)
    }
}
