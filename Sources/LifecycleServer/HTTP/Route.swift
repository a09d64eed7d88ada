import LifecycleWire

/// The API's resources, matched from a path. Names are fixed metric labels: never an id. Each case's path,
/// access and operations are its one declaration, `Route.declaration` (`RouteTable.swift`).
enum Route: String, CaseIterable, Sendable {
    /// The route's position in `allCases`, which is its declaration order: the one-byte tag a case without
    /// payload is stored as. Tables by route (its operations, its metrics) are read at it rather than by hashing
    /// the raw value, a string. A test holds the tag and `allCases` together.
    var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    case livez, readyz, metrics, openapi, reset, changes
    /// `GET /v1/event-types`: the catalogue of events.
    case eventTypes
    /// `GET /` and `GET /dashboard/{file}`: the built-in dashboard.
    case dashboard, dashboardAsset
    case devices, device, deviceEvents, deviceTimeline
    case apps, app, appEvents, appCallbacks, appTimeline, appNotifications
    /// `POST .../apps/{id}/verify`: whether the app's callbacks are the ones expected.
    case appVerify
    /// `GET .../apps/{id}/exits`: the app's terminations counted as MetricKit's `MXAppExitMetric` does.
    case appExits
    /// `GET` and `POST .../apps/{id}/pending-callback`: a live app's callback waiting for its answer, and its answer.
    case appPendingCallback
    /// `GET .../apps/{id}/versions`: the app's recorded inputs replayed on other iOS versions, callbacks side by side.
    case appVersions
    /// `GET .../coverage`: what the namespace's apps exercised, per OS band of the model.
    case coverage
    /// `GET .../export` and `POST .../import`: the namespace as a scenario, and a scenario applied to it.
    case export, `import`
    case namespaces, namespace, namespaceReset
    case unknown

    /// A route matched from a path: the id in it, if any, and the namespace named by a
    /// `/v1/namespaces/{ns}/...` path (nil for the unprefixed paths, which are the namespace `default`).
    struct Match {
        var route: Route
        var id: String?
        var namespace: String?
    }
}

extension Route.Match {
    /// The id the path names. Every route with an id in its path has one once matched; a route without
    /// answers 404 rather than trapping.
    func requireID() throws(APIError) -> String {
        guard let id else { throw .notFound("no resource at this path") }
        return id
    }

    /// The namespace the path names (`/v1/namespaces/{ns}`).
    func requireNamespace() throws(APIError) -> String {
        guard let namespace else { throw .notFound("no namespace in this path") }
        return namespace
    }
}
