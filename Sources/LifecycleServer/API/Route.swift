/// The API's resources, matched from a path. Names are fixed metric labels: never an id.
enum Route: String, CaseIterable, Sendable {
    case livez, readyz, metrics, openapi, reset, changes
    /// `GET /v1/event-types`: the catalogue of events.
    case eventTypes
    /// `GET /` and `GET /dashboard/{file}`: the built-in dashboard.
    case dashboard, dashboardAsset
    case devices, device, deviceEvents, deviceTimeline
    case apps, app, appEvents, appCallbacks, appTimeline, appNotifications
    /// `POST .../apps/{id}/verify`: whether the app's callbacks are the ones expected.
    case appVerify
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

    private static let namespacesPrefix = "/v1/namespaces"

    /// The route of `path`: every resource path also under `/v1/namespaces/{ns}`.
    static func match(_ path: String) -> Match {
        guard path.hasPrefix(namespacesPrefix) else {
            let (route, id) = matchUnprefixed(path)
            return Match(route: route, id: id)
        }
        let rest = path.utf8.dropFirst(namespacesPrefix.utf8.count)
        if rest.isEmpty || rest.elementsEqual("/".utf8) { return Match(route: .namespaces) }
        guard rest.first == UInt8(ascii: "/") else { return Match(route: .unknown) }
        let name = rest.dropFirst().prefix { $0 != UInt8(ascii: "/") }
        let namespace = String(Substring(name))
        let tail = String(Substring(rest.dropFirst(1 + name.count)))
        if tail.isEmpty || tail == "/" { return Match(route: .namespace, namespace: namespace) }
        if tail == "/reset" { return Match(route: .namespaceReset, namespace: namespace) }
        let (route, id) = matchUnprefixed("/v1" + tail)
        guard route.isNamespaced else { return Match(route: .unknown) }
        return Match(route: route, id: id, namespace: namespace)
    }

    /// Whether the route is a resource of one namespace (it then also exists under `/v1/namespaces/{ns}`).
    var isNamespaced: Bool {
        switch self {
        case .devices, .device, .deviceEvents, .deviceTimeline, .apps, .app, .appEvents, .appCallbacks, .appTimeline,
            .appNotifications, .appVerify, .namespace, .namespaceReset, .changes, .export, .import:
            true
        case .livez, .readyz, .metrics, .openapi, .eventTypes, .dashboard, .dashboardAsset, .reset, .namespaces,
            .unknown:
            false
        }
    }

    /// The route and the id of an unprefixed path, if any.
    private static func matchUnprefixed(_ path: String) -> (Route, String?) {
        let parts = Segments(path)
        switch parts.count {
        case 0:
            return (.dashboard, nil)
        case 2 where parts[0] == "dashboard":
            return (.dashboardAsset, String(parts[1]))
        case 1:
            switch parts[0] {
            case "livez": return (.livez, nil)
            case "readyz": return (.readyz, nil)
            case "metrics": return (.metrics, nil)
            default: return (.unknown, nil)
            }
        case 2 where parts[0] == "v1":
            switch parts[1] {
            case "openapi.yaml": return (.openapi, nil)
            case "event-types": return (.eventTypes, nil)
            case "reset": return (.reset, nil)
            case "changes": return (.changes, nil)
            case "export": return (.export, nil)
            case "import": return (.import, nil)
            case "devices": return (.devices, nil)
            case "apps": return (.apps, nil)
            case "namespaces": return (.namespaces, nil)
            default: return (.unknown, nil)
            }
        case 3 where parts[0] == "v1":
            switch parts[1] {
            case "devices": return (.device, String(parts[2]))
            case "apps": return (.app, String(parts[2]))
            default: return (.unknown, nil)
            }
        case 4 where parts[0] == "v1":
            let id = String(parts[2])
            switch (parts[1], parts[3]) {
            case ("devices", "events"): return (.deviceEvents, id)
            case ("devices", "timeline"): return (.deviceTimeline, id)
            case ("apps", "events"): return (.appEvents, id)
            case ("apps", "callbacks"): return (.appCallbacks, id)
            case ("apps", "timeline"): return (.appTimeline, id)
            case ("apps", "notifications"): return (.appNotifications, id)
            case ("apps", "verify"): return (.appVerify, id)
            default: return (.unknown, nil)
            }
        default:
            return (.unknown, nil)
        }
    }

}

/// Up to four non-empty segments of a path, found without allocating (this runs for every request).
private struct Segments {
    private var found: (Substring, Substring, Substring, Substring) = ("", "", "", "")
    /// The number of segments, or 5 for more than four.
    private(set) var count = 0

    init(_ path: String) {
        let utf8 = path.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            guard utf8[index] != UInt8(ascii: "/") else {
                index = utf8.index(after: index)
                continue
            }
            let start = index
            while index < utf8.endIndex && utf8[index] != UInt8(ascii: "/") { index = utf8.index(after: index) }
            let segment = Substring(path[start..<index])
            switch count {
            case 0: found.0 = segment
            case 1: found.1 = segment
            case 2: found.2 = segment
            case 3: found.3 = segment
            default:
                count = 5
                return
            }
            count += 1
        }
    }

    subscript(index: Int) -> Substring {
        switch index {
        case 0: found.0
        case 1: found.1
        case 2: found.2
        default: found.3
        }
    }
}
