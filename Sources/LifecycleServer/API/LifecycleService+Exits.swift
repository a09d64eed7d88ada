import HTTPServer
import LifecycleCore
import LifecycleHosting
import LifecycleWire
import Locking

extension LifecycleService {
    /// `GET .../apps/{id}/exits`: how often the app has stopped running, by category, in front and not, in
    /// MetricKit's `MXAppExitMetric` shape (`ExitMetricEncoder`), from the app as a reader sees it now.
    func exits(_ scope: RequestScope, _ request: HTTPRequest, app id: String) throws(APIError) -> HTTPResponse {
        let host = try appHost(scope, id)
        let (device, exits) = try host.shared.withLock { shared throws(APIError) -> (String, ExitCounts) in
            guard !shared.gone, let app = shared.current.app(id) else { throw .notFound("no app \(id)") }
            return (shared.current.id, app.exits)
        }
        return .read(ExitMetricEncoder.body(app: id, device: device, exits: exits), request: request)
    }
}
