#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The API's resources, matched from a path. Names are fixed metric labels: never an id.
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

    /// The route of `path`: every resource path also under `/v1/namespaces/{ns}`. Read from the path's bytes:
    /// no string is made but the id and the namespace's name.
    static func match(_ path: String) -> Match {
        var path = path
        return path.withUTF8 { match(Segment($0)) }
    }

    private static func match(_ path: Segment) -> Match {
        guard let rest = path.dropping("/v1/namespaces") else {
            let (route, id) = matchUnprefixed(Segments(path))
            return Match(route: route, id: id)
        }
        if rest.is("") || rest.is("/") { return Match(route: .namespaces) }
        guard let afterSlash = rest.dropping("/") else { return Match(route: .unknown) }
        let (name, tail) = afterSlash.split(at: UInt8(ascii: "/"))
        let namespace = name.text
        // The rest is read as the unprefixed path `/v1` + tail, its empty segments skipped as theirs are.
        let parts = Segments(tail, after: Segment("v1"))
        if parts.count == 1 { return Match(route: .namespace, namespace: namespace) }
        if parts.count == 2 && parts[1] == "reset" { return Match(route: .namespaceReset, namespace: namespace) }
        let (route, id) = matchUnprefixed(parts)
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

    /// Whether the route's path is under `/v1/`: the API proper, which is refused while the daemon recovers, and
    /// its changes while it drains or after a store failure. Read from the route, not the path's text, which may
    /// start with empty segments (`//v1/devices`) that matching skips.
    var isVersioned: Bool {
        switch self {
        case .openapi, .eventTypes, .reset, .changes, .devices, .device, .deviceEvents, .deviceTimeline, .apps, .app,
            .appEvents, .appCallbacks, .appTimeline, .appNotifications, .appVerify, .export, .import, .namespaces,
            .namespace, .namespaceReset:
            true
        case .livez, .readyz, .metrics, .dashboard, .dashboardAsset, .unknown:
            false
        }
    }

    /// The route and the id of an unprefixed path, if any.
    private static func matchUnprefixed(_ parts: Segments) -> (Route, String?) {
        switch parts.count {
        case 0:
            return (.dashboard, nil)
        case 2 where parts[0] == "dashboard":
            return (.dashboardAsset, parts[1].text)
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
            case "devices": return (.device, parts[2].text)
            case "apps": return (.app, parts[2].text)
            default: return (.unknown, nil)
            }
        case 4 where parts[0] == "v1":
            let id = parts[2].text
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

/// Up to four non-empty segments of a path's bytes, found without allocating (this runs for every request).
/// Valid only while those bytes are (inside `String.withUTF8`).
private struct Segments {
    private var found: (Segment, Segment, Segment, Segment) = (Segment(), Segment(), Segment(), Segment())
    /// The number of segments, or 5 for more than four.
    private(set) var count = 0

    /// The segments of `path`, after `first` when given.
    init(_ path: Segment, after first: Segment? = nil) {
        if let first {
            found.0 = first
            count = 1
        }
        let bytes = path.bytes
        var index = 0
        while index < bytes.count {
            guard bytes[index] != UInt8(ascii: "/") else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count && bytes[index] != UInt8(ascii: "/") { index += 1 }
            let segment = Segment(UnsafeBufferPointer(rebasing: bytes[start..<index]))
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

    subscript(index: Int) -> Segment {
        switch index {
        case 0: found.0
        case 1: found.1
        case 2: found.2
        default: found.3
        }
    }
}

/// A path's bytes or a part of them, compared with the routes' literals byte for byte.
private struct Segment {
    fileprivate private(set) var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    init() {}
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
    /// A literal's bytes, which live as long as the program.
    init(_ literal: StaticString) { bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) }

    /// The segment as a string of its own (an id).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    func `is`(_ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        return bytes.count == 0 || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    /// What follows `prefix`, when the segment starts with it.
    func dropping(_ prefix: StaticString) -> Segment? {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count, Segment(UnsafeBufferPointer(rebasing: bytes[..<count])).is(prefix) else { return nil }
        return Segment(UnsafeBufferPointer(rebasing: bytes[count...]))
    }

    /// The bytes before the first `separator`, and the rest from it (empty when there is none).
    func split(at separator: UInt8) -> (Segment, Segment) {
        let index = bytes.firstIndex(of: separator) ?? bytes.count
        return (Segment(UnsafeBufferPointer(rebasing: bytes[..<index])), Segment(UnsafeBufferPointer(rebasing: bytes[index...])))
    }

    static func == (segment: Segment, literal: StaticString) -> Bool { segment.is(literal) }
    static func ~= (literal: StaticString, segment: Segment) -> Bool { segment.is(literal) }
}
