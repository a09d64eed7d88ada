/// The API's resources, matched from a path. Names are fixed metric labels: never an id.
enum Route: String, CaseIterable, Sendable {
    case livez, readyz, metrics, openapi, reset
    case devices, device, deviceEvents, deviceTimeline
    case apps, app, appEvents, appCallbacks, appTimeline, appNotifications
    case unknown

    /// The route and the id in the path, if any.
    static func match(_ path: String) -> (Route, String?) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch parts.count {
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
            case "reset": return (.reset, nil)
            case "devices": return (.devices, nil)
            case "apps": return (.apps, nil)
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
            default: return (.unknown, nil)
            }
        default:
            return (.unknown, nil)
        }
    }

    /// The methods the route answers.
    var methods: [String] {
        switch self {
        case .livez, .readyz, .metrics, .openapi, .deviceTimeline, .appCallbacks, .appTimeline, .appNotifications:
            ["GET"]
        case .reset, .deviceEvents, .appEvents: ["POST"]
        case .devices, .apps: ["GET", "POST"]
        case .device, .app: ["GET", "DELETE"]
        case .unknown: []
        }
    }

    /// Whether the route changes state (refused while recovering or draining).
    func isWrite(_ method: String) -> Bool { method == "POST" || method == "DELETE" }
}
