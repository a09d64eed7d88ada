import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

extension LifecycleService {
    /// `GET .../export` (`?app=ID` or `?device=ID` for one; both: that app, which must be on that device): the
    /// namespace as a scenario that replays it (`ScenarioExport`) of the devices `Application.exportedDevices`
    /// gives, written as it is read by an `ExportJob`; `429 too-many-requests` when the daemon or the namespace
    /// runs as many as it may (`ExportSlots`).
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
        let recorded = try application.exportedDevices(in: scope.space, app: app, device: deviceID)
        let namespace = scope.space.name
        let slot = try application.exports.take(namespace)
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
                    apps: app.map { [$0] })
            }, done: done)
    }
}
