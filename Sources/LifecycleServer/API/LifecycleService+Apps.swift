import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

extension LifecycleService {
    func createApp(_ scope: RequestScope, _ request: HTTPRequest, _ done: AnswerSink)
        throws(APIError)
    {
        let body = try request.requiredJSONBody()
        try application.checkSize(of: body, rawBytes: request.body.count, batch: false, what: "an app's description")
        try application.createApp(in: scope.space, request: try AppRequest(body)) { result in
            switch result {
            case .success(let (id, device)):
                let location = ("Location", scope.path("/apps/\(id)"))
                done(.json(201, WireRendering.app(id, on: device), headers: [location]))
            case .failure(let error):
                done(error.response)
            }
        }
    }

    func getApp(_ scope: RequestScope, _ id: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let host = try appHost(scope, id)
        return try host.shared.withLock { shared throws(APIError) -> HTTPResponse in
            guard !shared.gone else { throw .notFound("no app \(id)") }
            // Served before and unchanged since (only manual clocks keep snapshots, and a change of the app
            // or its removal drops its snapshot): answered without copying the device or the app.
            if let kept = shared.snapshots[id], kept.time == shared.device.time,
                kept.protectedDataAvailable == shared.device.protectedDataAvailable
            {
                return .read(kept, request: request)
            }
            let device = shared.current
            guard let app = device.app(id) else { throw .notFound("no app \(id)") }
            var w = JSONWriter(reservingCapacity: SnapshotEncoder.appBytes)
            SnapshotEncoder.app(app, on: device, into: &w)
            let json = w.bytes
            let etag = HTTPResponse.etag(of: json)
            // A realtime clock moves on every read: nothing to keep.
            guard device.configuration.clockMode == .manual else { return .read(json, etag: etag, request: request) }
            let kept = CachedSnapshot(
                json: json, etag: etag, fields: HTTPResponse.readFields(etag: etag),
                notModifiedFields: HTTPResponse.notModifiedFields(etag: etag), time: device.time,
                protectedDataAvailable: device.protectedDataAvailable)
            shared.snapshots[id] = kept
            return .read(kept, request: request)
        }
    }

    func deleteApp(_ scope: RequestScope, _ id: String, _ done: AnswerSink)
        throws(APIError)
    {
        try application.deleteApp(id, in: scope.space) { result in
            switch result {
            case .success: done(HTTPResponse(status: 204))
            case .failure(let error): done(error.response)
            }
        }
    }

    func listApps(_ scope: RequestScope, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let registry = scope.registry
        let (limit, after) = try request.listQuery()
        var state: AppState?
        if let text = request.query["state"] {
            guard let value = AppState(rawValue: text) else {
                throw APIError.invalidField(
                    "state", "state must be an app state, not \"\(text)\"", allowed: AppState.allCases.map(\.rawValue)
                ).suggesting(for: text, among: AppState.allCases.map(\.rawValue))
            }
            state = value
        }
        var candidates: ArraySlice<(id: String, host: DeviceHost)>
        if let deviceID = request.query["device"] {
            guard let host = registry.device(deviceID) else { throw .notFound("no device \(deviceID)") }
            candidates = host.shared.withLock { $0.device.appOrder }.map { ($0, host) }.sorted { $0.id < $1.id }[...]
        } else if let state {
            // The apps in that state (and those of realtime devices), not every app: checked below.
            candidates = scope.space.stateIndex.candidates(in: state)[...]
        } else {
            candidates = registry.appsSortedByID()[...]
        }
        if let after {
            // The first id past the cursor, by binary search: pages cost the same wherever they start.
            var low = candidates.startIndex
            var high = candidates.endIndex
            while low < high {
                let middle = (low + high) / 2
                if candidates[middle].id <= after { low = middle + 1 } else { high = middle }
            }
            candidates = candidates[low...]
        }
        var w = JSONWriter(reservingCapacity: 256 + min(candidates.count, limit) * 700)
        w.beginObject()
        w.field("items")
        w.beginArray()
        var count = 0
        var lastWritten: String?
        var more = false
        for candidate in candidates {
            // Full at `limit` items, or once the items reach --max-answer-bytes: `next` says where to go on.
            let full = count == limit || w.count >= options.maxAnswerBytes
            guard registry.app(candidate.id) === candidate.host else { continue }
            let matched = candidate.host.shared.withLock { shared -> Bool in
                let device = shared.current
                guard !shared.gone, let app = device.app(candidate.id), state == nil || app.state == state
                else { return false }
                if !full { SnapshotEncoder.app(app, on: device, into: &w) }
                return true
            }
            guard matched else { continue }
            if full {
                more = true
                break
            }
            count += 1
            lastWritten = candidate.id
        }
        let next = more ? lastWritten : nil
        w.endArray()
        w.field("next")
        if let next { w.string(next) } else { w.null() }
        w.endObject()
        return .read(w.bytes, request: request)
    }

    func appHost(_ scope: RequestScope, _ id: String) throws(APIError) -> DeviceHost {
        try application.appHost(id, in: scope.space)
    }
}
