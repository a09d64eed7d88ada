import Foundation
import LifecycleCore
import LifecycleJSON

/// A neutral interruption `lifecycled check --perturb` injects before an event step: something a user or the
/// system does that leaves the app where it was (docs/TESTING.md, "Perturbation").
public enum Interruption: String, CaseIterable, Sendable {
    case lockUnlock = "lock, unlock"
    case homeAndBack = "Home, back to the app"
    case declinedCall = "a declined call"
    case memoryWarning = "a memory warning"
    case killAndRelaunch = "a system kill, relaunch"

    /// The events it posts, all or nothing, on the app's path (a device event there goes to its device), and
    /// whether the app must be in front and active for it to be neutral.
    var events: (body: String, needsActive: Bool) {
        switch self {
        case .lockUnlock: (#"[{"type": "lock"}, {"type": "unlock"}]"#, false)
        case .homeAndBack: (#"[{"type": "homeButton"}, {"type": "launch"}]"#, true)
        case .declinedCall:
            (
                #"[{"type": "interruptionBegan", "kind": "call"}, {"type": "interruptionEnded", "accepted": false}]"#,
                false
            )
        case .memoryWarning: (#"[{"type": "memoryWarning"}]"#, false)
        case .killAndRelaunch: (#"[{"type": "terminate"}, {"type": "launch"}]"#, true)
        }
    }
}

/// A transport that, before the `before`-th events request a scenario sends (from 1), posts an interruption
/// for the app the request is about (on a device's path: the device's app in front; none, nothing), and
/// remembers whether the model took it (all or nothing). The scenario's own requests pass unchanged.
public final class PerturbingTransport: ScenarioTransport, @unchecked Sendable {
    let inner: any ScenarioTransport
    let before: Int
    let interruption: Interruption
    let headers: [(String, String)]
    private let lock = NSLock()
    private var sent = 0
    private var taken = false

    public init(_ inner: any ScenarioTransport, before: Int, interruption: Interruption, token: String?) {
        self.inner = inner
        self.before = before
        self.interruption = interruption
        headers = [("Accept", "application/json")] + (token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    /// Whether the interruption was posted and taken.
    public var applied: Bool { lock.withLock { taken } }

    /// Whether `method` and `path` post events; the path's root (`/v1` or `/v1/namespaces/NS`), its collection
    /// (`apps` or `devices`) and id when they do.
    package static func eventsTarget(_ method: String, _ path: String) -> (
        root: String, collection: String, id: String
    )? {
        let parts = path.split(separator: "?")[0].split(separator: "/").map(String.init)
        guard method == "POST", parts.count >= 4, parts.last == "events" else { return nil }
        let collection = parts[parts.count - 3]
        guard collection == "apps" || collection == "devices" else { return nil }
        return ("/" + parts.dropLast(3).joined(separator: "/"), collection, parts[parts.count - 2])
    }

    public func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, headers: [(String, String)], body: [UInt8])
    {
        if let target = Self.eventsTarget(method, path) {
            let count = lock.withLock { () -> Int in
                sent += 1
                return sent
            }
            if count == before { interrupt(target) }
        }
        return try inner.exchange(method: method, path: path, headers: headers, body: body)
    }

    private func read(_ path: String) -> JSONValue? {
        guard let answer = try? inner.exchange(method: "GET", path: path, headers: headers, body: nil),
            answer.status == 200
        else { return nil }
        return try? JSONParser.parse(answer.body)
    }

    private func interrupt(_ target: (root: String, collection: String, id: String)) {
        var app: String? = target.collection == "apps" ? target.id : nil
        if app == nil { app = read("\(target.root)/devices/\(target.id)")?["foregroundApp"]?.stringValue }
        guard let app, let snapshot = read("\(target.root)/apps/\(app)") else { return }
        let (events, needsActive) = interruption.events
        if needsActive {
            guard snapshot["state"]?.stringValue == "active", let device = snapshot["device"]?.stringValue,
                read("\(target.root)/devices/\(device)")?["foregroundApp"]?.stringValue == app
            else { return }
        }
        guard
            let answer = try? inner.exchange(
                method: "POST", path: "\(target.root)/apps/\(app)/events",
                headers: headers + [("Content-Type", "application/json")], body: Array(events.utf8)),
            (200..<300).contains(answer.status)
        else { return }
        lock.withLock { taken = true }
    }
}
