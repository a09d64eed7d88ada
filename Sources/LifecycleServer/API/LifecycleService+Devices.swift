import CoreMetrics
import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

extension LifecycleService {
    func createDevice(_ scope: RequestScope, _ request: HTTPRequest, _ done: AnswerSink)
        throws(APIError)
    {
        let body = try request.jsonBody() ?? .object([:])
        try application.checkSize(of: body, rawBytes: request.body.count, batch: false, what: "a device's description")
        let parsed = try DeviceRequest(body)
        try application.createDevice(in: scope.space, id: parsed.id, request: parsed) { result in
            switch result {
            case .success(let host):
                let json = host.shared.withLock { Self.deviceJSON($0.device) }
                done(.json(201, json, headers: [("Location", scope.path("/devices/\(host.id)"))]))
            case .failure(let error):
                done(error.response)
            }
        }
    }

    func getDevice(_ scope: RequestScope, _ id: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let host = try device(scope, id)
        let json = try host.shared.withLock { shared throws(APIError) -> [UInt8] in
            guard !shared.gone else { throw .notFound("no device \(id)") }
            return Self.deviceJSON(shared.current)
        }
        return .read(json, request: request)
    }

    func deleteDevice(_ scope: RequestScope, _ id: String, _ done: AnswerSink)
        throws(APIError)
    {
        try application.deleteDevice(id, in: scope.space) { result in
            switch result {
            case .success: done(HTTPResponse(status: 204))
            case .failure(let error): done(error.response)
            }
        }
    }

    func listDevices(_ scope: RequestScope, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let (limit, after) = try request.listQuery()
        var hosts = scope.registry.allDevices().filter { after == nil || $0.id > after! }
        hosts.sort { $0.id < $1.id }
        var w = JSONWriter(reservingCapacity: 256 + min(hosts.count, limit) * 400)
        w.beginObject()
        w.field("items")
        w.beginArray()
        var written = 0
        // At most `limit` devices, and none more once the items reach --max-answer-bytes.
        while written < hosts.count && written < limit && w.count < options.maxAnswerBytes {
            hosts[written].shared.withLock { SnapshotEncoder.device($0.current, into: &w) }
            written += 1
        }
        w.endArray()
        w.field("next")
        if written < hosts.count, written > 0 { w.string(hosts[written - 1].id) } else { w.null() }
        w.endObject()
        return .read(w.bytes, request: request)
    }

    func device(_ scope: RequestScope, _ id: String) throws(APIError) -> DeviceHost {
        try application.deviceHost(id, in: scope.space)
    }

    static func deviceJSON(_ device: Device) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 512)
        SnapshotEncoder.device(device, into: &w)
        return w.bytes
    }
}
