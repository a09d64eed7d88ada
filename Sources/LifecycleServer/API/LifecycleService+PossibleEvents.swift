import HTTPServer
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

extension LifecycleService {
    /// `GET .../apps/{id}/events`: each event type of the catalogue, whether the app (and its device) would
    /// accept it now, and for those it would not, the problem a `POST` of it would answer. The core decides
    /// (`Device.possibleEvents`), on a copy of the device as a reader sees it now; nothing changes.
    func possibleEvents(_ scope: RequestScope, _ request: HTTPRequest, app id: String) throws(APIError) -> HTTPResponse
    {
        let host = try appHost(scope, id)
        let device = try host.shared.withLock { shared throws(APIError) -> Device in
            guard !shared.gone else { throw .notFound("no app \(id)") }
            return shared.current
        }
        // Outside the lock: trying every event type takes longer than a read should hold it.
        guard let app = device.app(id), let possibilities = device.possibleEvents(for: id) else {
            throw .notFound("no app \(id)")
        }
        var w = JSONWriter(reservingCapacity: 4096)
        w.beginObject()
        w.field("app")
        w.string(id)
        w.field("device")
        w.string(device.id)
        w.field("state")
        w.string(app.state.rawValue)
        w.field("time")
        w.number(device.time)
        w.field("eventTypes")
        w.beginArray()
        for possibility in possibilities {
            w.beginObject()
            w.field("type")
            w.string(possibility.type.name)
            w.field("scope")
            w.string(possibility.type.details.scope.rawValue)
            w.field("possible")
            w.bool(possibility.isPossible)
            if let rejection = possibility.rejection {
                w.field("problem")
                w.raw(APIError(rejection).document)
            } else {
                w.field("changes")
                w.bool(possibility.changes)
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return .read(w.bytes, request: request)
    }
}
