public import LifecycleCore
import LifecycleJSON

/// What a scenario left in its namespace, read through the API as a client reads it: each device (its id, its
/// `iosVersion`, its apps) and its whole timeline, oldest first, page by page.
public struct NamespaceContents: Sendable {
    public struct Device: Sendable {
        public var id: String
        public var iosVersion: String
        public var apps: [String]
        /// Every entry of the device's timeline, as the daemon writes it.
        public var timeline: [JSONValue]

        public init(id: String, iosVersion: String, apps: [String], timeline: [JSONValue]) {
            self.id = id
            self.iosVersion = iosVersion
            self.apps = apps
            self.timeline = timeline
        }
    }

    public var devices: [Device] = []

    public init() {}

    /// The callbacks' selectors of each app, in order, by app id.
    public var callbacks: [String: [String]] {
        var found: [String: [String]] = [:]
        for device in devices {
            for app in device.apps { found[app] = [] }
            for entry in device.timeline where entry["kind"] == .string("callback") {
                guard let app = entry["app"]?.stringValue, let selector = entry["selector"]?.stringValue else {
                    continue
                }
                found[app, default: []].append(selector)
            }
        }
        return found
    }

    /// The largest page the daemon answers.
    static let page = 1000

    /// Reads the namespace `space` through `transport` (`token`: sent as a bearer token).
    public static func read(_ space: String, through transport: any ScenarioTransport, token: String? = nil)
        throws(Mismatch) -> NamespaceContents
    {
        let root = space == "default" ? "/v1" : "/v1/namespaces/\(space)"
        func get(_ path: String) throws(Mismatch) -> JSONValue {
            var headers = [("Accept", "application/json")]
            if let token { headers.append(("Authorization", "Bearer \(token)")) }
            let answer: (status: Int, headers: [(String, String)], body: [UInt8])
            do {
                answer = try transport.exchange(method: "GET", path: path, headers: headers, body: nil)
            } catch {
                throw Mismatch("GET \(path): no answer: \(error)")
            }
            guard answer.status == 200, let document = try? JSONParser.parse(answer.body) else {
                throw Mismatch(
                    "GET \(path): status \(answer.status), \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
            }
            return document
        }
        var contents = NamespaceContents()
        var listed: [JSONValue] = []
        var after: String?
        repeat {
            let page = try get("\(root)/devices?limit=\(Self.page)" + (after.map { "&after=\($0)" } ?? ""))
            guard case .array(let items)? = page["items"] else { break }
            listed += items
            after = items.isEmpty ? nil : page["next"]?.stringValue
        } while after != nil
        for device in listed {
            guard let id = device["id"]?.stringValue else { continue }
            var timeline: [JSONValue] = []
            var cursor = 0.0
            while true {
                let page = try get("\(root)/devices/\(id)/timeline?after=\(Int(cursor))&limit=\(Self.page)")
                guard case .array(let items)? = page["items"], !items.isEmpty else { break }
                timeline += items
                guard let next = page["next"]?.numberValue, next > cursor else { break }
                cursor = next
            }
            var apps: [String] = []
            if case .array(let ids)? = device["apps"] { apps = ids.compactMap(\.stringValue) }
            contents.devices.append(
                Device(id: id, iosVersion: device["iosVersion"]?.stringValue ?? "", apps: apps, timeline: timeline))
        }
        return contents
    }
}

extension Scenario {
    /// The scenario with every device it makes (its `POST /v1/devices` steps) on iOS `version`.
    public func onVersion(_ version: String) -> Scenario {
        var copy = self
        copy.steps = Self.onVersion(steps, version)
        return copy
    }

    /// `steps` with the body of each `POST /v1/devices` given `iosVersion` `version`.
    package static func onVersion(_ steps: [JSONValue], _ version: String) -> [JSONValue] {
        steps.map { step in
            guard step["do"]?.stringValue?.hasSuffix("/v1/devices") == true, case .object(var members) = step,
                case .object(var body)? = members["body"]
            else { return step }
            body["iosVersion"] = .string(version)
            members["body"] = .object(body)
            return .object(members)
        }
    }
}
