public import Foundation
// The generated types are the client's answers (and `Event`, `AppState` its arguments): importing the client
// imports them.
@_exported public import LifecycleCore
@_exported public import LifecycleOpenAPI
public import OpenAPIRuntime
import OpenAPIURLSession

/// A client of lifecycled bound to one namespace (and its token): devices, apps, events, timelines.
///
///     let lifecycled = LifecycledClient(url: URL(string: "http://127.0.0.1:8080")!, namespace: "ci-42", token: token)
///     let mail = try await lifecycled.createApp(id: "mail", bundleId: "com.example.mail")
///     try await mail.send(.launch, .homeButton)
///     let callbacks = try await mail.callbacks().items.map(\.selector)
///
/// Every refusal is thrown as a `LifecycledProblem`. `api` is the generated client (`LifecycleOpenAPI`), for
/// what this layer does not wrap.
/// A namespace is created by its first use.
public struct LifecycledClient: Sendable {
    public let namespace: String
    public let api: LifecycleOpenAPI.Client
    /// The daemon's root and the token, for event streams, which URLSession reads as they come; nil over
    /// another transport (the embedded daemon's), where updates are long polls.
    let streams: (root: URL, token: String?)?

    /// A daemon at `url` (its root, e.g. `http://127.0.0.1:8080`), through URLSession.
    public init(url: URL, namespace: String = "default", token: String? = nil) {
        self.init(url: url, transport: URLSessionTransport(), namespace: namespace, token: token, streams: (url, token))
    }

    /// Any transport: `LifecycleEmbedded` gives one to a daemon in this process.
    public init(url: URL, transport: any ClientTransport, namespace: String = "default", token: String? = nil) {
        self.init(url: url, transport: transport, namespace: namespace, token: token, streams: nil)
    }

    private init(
        url: URL, transport: any ClientTransport, namespace: String, token: String?,
        streams: (root: URL, token: String?)?
    ) {
        self.namespace = namespace
        api = LifecycleOpenAPI.Client(
            serverURL: url, transport: transport, middlewares: [ProblemMiddleware(token: token)])
        self.streams = streams
    }

    /// Deletes every device and app of the namespace.
    public func reset() async throws {
        try await answer("resetNamespace") {
            switch try await api.resetNamespace(path: .init(ns: namespace)) {
            case .noContent: ()
            case let other: throw UnexpectedAnswer(operation: "resetNamespace", answer: "\(other)")
            }
        }
    }

    /// The namespace as a scenario that replays it (`GET .../export`; `app` or `device` for one), ready to save,
    /// check with `lifecycled check`, or import elsewhere.
    public func export(app: String? = nil, device: String? = nil) async throws -> Components.Schemas.Scenario {
        try await answer("exportScenarioInNamespace") {
            switch try await api.exportScenarioInNamespace(
                path: .init(ns: namespace), query: .init(app: app, device: device))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "exportScenarioInNamespace", answer: "\(other)")
            }
        }
    }

    /// Applies a scenario's steps in the namespace, all or nothing (`POST .../import`); with `checkingExpectations`
    /// false, its `expect`s are not held to.
    @discardableResult
    public func importScenario(
        _ scenario: Components.Schemas.Scenario, checkingExpectations: Bool = true
    ) async throws -> Components.Schemas.ImportResult {
        try await answer("importScenarioInNamespace") {
            switch try await api.importScenarioInNamespace(
                path: .init(ns: namespace), query: .init(expectations: checkingExpectations ? .check : .ignore),
                body: .json(scenario))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "importScenarioInNamespace", answer: "\(other)")
            }
        }
    }

    /// Creates a device; `id` nil lets the daemon name it.
    @discardableResult
    public func createDevice(_ device: Components.Schemas.DeviceCreate) async throws -> DeviceHandle {
        try await answer("createDeviceInNamespace") {
            switch try await api.createDeviceInNamespace(path: .init(ns: namespace), body: .json(device)) {
            case .created(let created): DeviceHandle(client: self, id: try created.body.json.id)
            case let other: throw UnexpectedAnswer(operation: "createDeviceInNamespace", answer: "\(other)")
            }
        }
    }

    @discardableResult
    public func createDevice(id: String? = nil, iosVersion: String? = nil) async throws -> DeviceHandle {
        try await createDevice(.init(id: id, iosVersion: iosVersion))
    }

    /// Creates an app, on `app.device` (a device of its own running its `iosVersion` when none is named).
    @discardableResult
    public func createApp(_ app: Components.Schemas.AppCreate) async throws -> AppHandle {
        try await answer("createAppInNamespace") {
            switch try await api.createAppInNamespace(path: .init(ns: namespace), body: .json(app)) {
            case .created(let created): AppHandle(client: self, id: try created.body.json.id)
            case let other: throw UnexpectedAnswer(operation: "createAppInNamespace", answer: "\(other)")
            }
        }
    }

    @discardableResult
    public func createApp(
        id: String? = nil, bundleId: String, device: String? = nil, iosVersion: String? = nil
    ) async throws -> AppHandle {
        try await createApp(.init(id: id, device: device, bundleId: bundleId, iosVersion: iosVersion))
    }

    /// An app already there (nothing is asked of the daemon until it is used).
    public func app(_ id: String) -> AppHandle { AppHandle(client: self, id: id) }

    /// A device already there.
    public func device(_ id: String) -> DeviceHandle { DeviceHandle(client: self, id: id) }

    /// Runs a call of the generated client, throwing a refusal as the `LifecycledProblem` it is.
    func answer<Result>(_ operation: String, _ call: () async throws -> Result) async throws -> Result {
        do {
            return try await call()
        } catch let error as ClientError {
            if let problem = error.underlyingError as? LifecycledProblem { throw problem }
            throw error
        }
    }
}
