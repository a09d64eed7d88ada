import Foundation
import HTTPServer
import LifecycleCore

extension LifecycleService {
    var hostHooks: HostHooks {
        var hooks = HostHooks(
            eventsApplied: { [metrics] in metrics.applied($0) },
            entriesEvicted: { [metrics] in metrics.evicted.increment(by: $0) },
            storeFailed: { [weak self] error in self?.storeDidFail(error) })
        hooks.changed = { [changeFeed] host, apps, removedApp in
            changeFeed.changed(host, apps: apps, removedApp: removedApp)
        }
        hooks.deleted = { [changeFeed] host, apps in changeFeed.deleted(host, apps: apps) }
        hooks.snapshotEvery = options.snapshotEvery
        return hooks
    }

    func makeHost(_ device: Device, anchorWall: Double, journaled: Bool = false) -> DeviceHost {
        DeviceHost(
            device: device, anchorWall: anchorWall, journal: journal, history: historyBounds,
            hooks: hostHooks, journaled: journaled)
    }

    /// Creates and registers a device; its creation is journaled before `completion` runs. During a reset
    /// the creation waits for the reset to hand its deletion to the journal.
    func createDevice(
        id: String?, request: DeviceRequest,
        completion: @escaping @Sendable (Result<DeviceHost, APIError>) -> Void
    ) throws(APIError) {
        let id = id ?? "d-" + Self.newID()
        let device: Device
        do {
            device = try Device(id: id, configuration: request.configuration)
        } catch {
            throw APIError(error)
        }
        admitCreation { [self] in
            let host = makeHost(device, anchorWall: Date().timeIntervalSince1970)
            guard registry.insertDevice(host) else {
                return completion(.failure(.alreadyExists("device \(id) already exists")))
            }
            metrics.devices.record(registry.devices)
            host.create { [registry] result in
                if case .failure = result { registry.removeDevice(host, apps: []) }
                completion(result.map { _ in host }.mapError(APIError.init))
            }
        }
    }

    func createDevice(_ request: HTTPRequest, _ done: @escaping @Sendable (HTTPResponse) -> Void) throws(APIError) {
        let body = try request.jsonBody() ?? .object([:])
        try checkSize(of: body, rawBytes: request.body.count, batch: false, what: "a device's description")
        let parsed = try DeviceRequest(body)
        try createDevice(id: parsed.id, request: parsed) { result in
            switch result {
            case .success(let host):
                let json = host.shared.withLock { Self.deviceJSON($0.device) }
                done(.json(201, json, headers: [("Location", "/v1/devices/\(host.id)")]))
            case .failure(let error):
                done(error.response)
            }
        }
    }

    func getDevice(_ id: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let host = try device(id)
        let json = try host.shared.withLock { shared throws(APIError) -> [UInt8] in
            guard !shared.gone else { throw .notFound("no device \(id)") }
            return Self.deviceJSON(shared.current)
        }
        return .read(json, request: request)
    }

    func deleteDevice(_ id: String, _ done: @escaping @Sendable (HTTPResponse) -> Void) throws(APIError) {
        let host = try device(id)
        registry.removeDevice(host, apps: [])
        metrics.devices.record(registry.devices)
        deleteHost(host) { result in
            switch result {
            case .success: done(HTTPResponse(status: 204))
            case .failure(let error): done(APIError(error).response)
            }
        }
    }

    /// Deletes a host taken out of the registry, and gives back every app id it holds.
    func deleteHost(_ host: DeviceHost, completion: @escaping @Sendable (Result<Void, HostError>) -> Void) {
        host.delete(
            releaseApps: { [registry, metrics] apps in
                for app in apps { registry.releaseApp(app, from: host) }
                metrics.apps.record(registry.apps)
            },
            completion: completion)
    }

    func listDevices(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let (limit, after) = try request.listQuery()
        var hosts = registry.allDevices().filter { after == nil || $0.id > after! }
        hosts.sort { $0.id < $1.id }
        var w = JSONWriter(reservingCapacity: 256 + min(hosts.count, limit) * 400)
        w.beginObject()
        w.field("items")
        w.beginArray()
        var written = 0
        // At most `limit` devices, and none more once the items reach --max-answer-bytes.
        while written < hosts.count && written < limit && w.bytes.count < options.maxAnswerBytes {
            hosts[written].shared.withLock { SnapshotEncoder.device($0.current, into: &w) }
            written += 1
        }
        w.endArray()
        w.field("next")
        if written < hosts.count, written > 0 { w.string(hosts[written - 1].id) } else { w.null() }
        w.endObject()
        return .read(w.bytes, request: request)
    }

    func device(_ id: String) throws(APIError) -> DeviceHost {
        guard let host = registry.device(id) else { throw .notFound("no device \(id)") }
        return host
    }

    static func deviceJSON(_ device: Device) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 512)
        SnapshotEncoder.device(device, into: &w)
        return w.bytes
    }

    static func newID() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}
