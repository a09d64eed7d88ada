public import LifecycleCore
public import LifecycleOpenAPI
import OpenAPIRuntime

/// One device of the client's namespace.
public struct DeviceHandle: Sendable {
    public let client: LifecycledClient
    public let id: String

    /// Sends device-level events (`homeButton`, `lock`, `advanceTime`, ...) in one request, all or nothing.
    @discardableResult
    public func send(_ events: [Event], idempotencyKey: String? = nil) async throws
        -> Components.Schemas.DeviceEventResult
    {
        let body = try Event.bodies(events, as: Components.Schemas.DeviceEvent.self)
        return try await client.answer("postDeviceEventsInNamespace") {
            switch try await client.api.postDeviceEventsInNamespace(
                path: .init(ns: client.namespace, id: id), headers: .init(Idempotency_hyphen_Key: idempotencyKey),
                body: .json(.case2(body)))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "postDeviceEventsInNamespace", answer: "\(other)")
            }
        }
    }

    @discardableResult
    public func send(_ events: Event...) async throws -> Components.Schemas.DeviceEventResult { try await send(events) }

    /// The device as it is now.
    public func get() async throws -> Components.Schemas.Device {
        try await client.answer("getDeviceInNamespace") {
            switch try await client.api.getDeviceInNamespace(path: .init(ns: client.namespace, id: id)) {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "getDeviceInNamespace", answer: "\(other)")
            }
        }
    }

    /// A page of the device's own timeline.
    public func timeline(after: Int? = nil, limit: Int? = nil, wait: Double? = nil) async throws
        -> Components.Schemas.EntryPage
    {
        try await client.answer("getDeviceTimelineInNamespace") {
            switch try await client.api.getDeviceTimelineInNamespace(
                path: .init(ns: client.namespace, id: id), query: .init(after: after, limit: limit, wait: wait),
                headers: .init(accept: [.init(contentType: .json)]))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "getDeviceTimelineInNamespace", answer: "\(other)")
            }
        }
    }

    /// Deletes the device and its apps.
    public func delete() async throws {
        try await client.answer("deleteDeviceInNamespace") {
            switch try await client.api.deleteDeviceInNamespace(path: .init(ns: client.namespace, id: id)) {
            case .noContent: ()
            case let other: throw UnexpectedAnswer(operation: "deleteDeviceInNamespace", answer: "\(other)")
            }
        }
    }
}
