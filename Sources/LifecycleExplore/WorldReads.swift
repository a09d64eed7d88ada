import LifecycleCore
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire
import Locking

/// The reads a property makes, answered from a world in this process as the daemon answers them: a page of a
/// timeline, `{"items": [...], "next": SEQ}`, the entries as the daemon writes them (`EntryEncoder`).
/// A page is written once per path: the properties of one state read the same pages (the runner, given the same
/// array, does not parse it again either: `ParsedAnswer`).
struct WorldReads: ScenarioTransport {
    let state: WorldState
    private let written = Protected<[String: [UInt8]]>([:])

    init(state: WorldState) { self.state = state }

    func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, headers: [(String, String)], body: [UInt8])
    {
        guard method == "GET", let route = ReadRoute(path) else {
            throw ExploreError("\(method) \(path): explore answers \(ExploreWorld.reads)")
        }
        if let page = written.withLock({ $0[path] }) { return (200, [("Content-Type", "application/json")], page) }
        let isDevice: Bool
        if case .deviceTimeline = route.kind { isDevice = true } else { isDevice = false }
        guard let at = state.device(holding: route.id, isDevice: isDevice) else {
            return (404, [], Array(#"{"code": "not-found"}"#.utf8))
        }
        var w = JSONWriter(reservingCapacity: 4096)
        w.beginObject()
        w.field("items")
        w.beginArray()
        var last: UInt64?
        var count = 0
        for entry in state.timelines[at] where entry.seq > route.after && count < route.limit {
            switch route.kind {
            case .deviceTimeline: break
            case .appTimeline: guard entry.app == route.id else { continue }
            case .callbacks:
                guard entry.app == route.id, case .callback = entry.body else { continue }
            }
            if let session = route.session, entry.session != session { continue }
            EntryEncoder.write(entry, into: &w)
            last = entry.seq
            count += 1
        }
        w.endArray()
        w.field("next")
        w.int(Int(last ?? route.after))
        w.endObject()
        let page = w.bytes
        written.withLock { $0[path] = page }
        return (200, [("Content-Type", "application/json")], page)
    }
}

/// A read explore answers: its path and query.
struct ReadRoute {
    enum Kind { case callbacks, appTimeline, deviceTimeline }
    var kind: Kind
    var id: String
    var after: UInt64 = 0
    var limit = 100
    var session: String?

    /// The largest page, as the daemon's (`limit` from 1 to 1000, 100 when absent).
    static let maxLimit = 1000

    init?(_ target: String) {
        let halves = target.split(separator: "?", maxSplits: 1)
        let parts = halves.first.map { $0.split(separator: "/").map(String.init) } ?? []
        guard parts.count == 4, parts[0] == "v1" else { return nil }
        switch (parts[1], parts[3]) {
        case ("apps", "callbacks"): kind = .callbacks
        case ("apps", "timeline"): kind = .appTimeline
        case ("devices", "timeline"): kind = .deviceTimeline
        default: return nil
        }
        id = parts[2]
        for pair in halves.count > 1 ? halves[1].split(separator: "&") : [] {
            let member = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard member.count == 2 else { return nil }
            switch member[0] {
            case "after":
                guard let value = UInt64(member[1]) else { return nil }
                after = value
            case "limit":
                guard let value = Int(member[1]), (1...Self.maxLimit).contains(value) else { return nil }
                limit = value
            case "session": session = member[1]
            default: return nil
            }
        }
    }
}
