/// A device's apps by id, with the bookkeeping that keeps an event's cost independent of how many
/// apps the device holds: which apps have something pending on the clock, the memory in use, which
/// apps changed (for a driver publishing copies), and an undo record while a batch may still fail.
struct AppTable: Sendable, Codable, Equatable {
    private(set) var storage: [String: AppInstance] = [:]
    /// Apps that may have a deadline or fall under the suspension rule: only these are visited by the clock.
    private(set) var clocked: Set<String> = []
    /// Megabytes held by apps in memory (running or suspended).
    private(set) var inUseMB = 0
    /// Ids changed since the driver last asked.
    private(set) var changed: Set<String> = []
    /// While a batch is applied: each touched app's value before the batch (nil: it did not exist).
    private var undo: [String: AppInstance?]?

    private enum CodingKeys: String, CodingKey {
        case storage
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for (id, app) in try container.decode([String: AppInstance].self, forKey: .storage) { self[id] = app }
        changed = []
    }

    static func == (lhs: AppTable, rhs: AppTable) -> Bool { lhs.storage == rhs.storage }

    subscript(id: String) -> AppInstance? {
        get { storage[id] }
        set {
            willChange(id)
            storage[id] = newValue
            didChange(id)
        }
        _modify {
            willChange(id)
            yield &storage[id]
            didChange(id)
        }
    }

    var values: Dictionary<String, AppInstance>.Values { storage.values }

    private mutating func willChange(_ id: String) {
        if undo != nil, undo![id] == nil { undo![id] = .some(storage[id]) }
        if let app = storage[id], app.state != .notRunning { inUseMB -= app.configuration.memoryMB }
    }

    private mutating func didChange(_ id: String) {
        changed.insert(id)
        guard let app = storage[id] else {
            clocked.remove(id)
            return
        }
        if app.state != .notRunning { inUseMB += app.configuration.memoryMB }
        if app.state == .background || !app.backgroundTasks.isEmpty || app.windowEnd != nil || app.idleSince != nil {
            clocked.insert(id)
        } else {
            clocked.remove(id)
        }
    }

    /// The clocked apps in the order they were added, so deadlines fire deterministically.
    var clockedInOrder: [String] {
        clocked.sorted { storage[$0]!.ordinal < storage[$1]!.ordinal }
    }

    /// Starts recording what a batch changes.
    mutating func beginBatch() { undo = [:] }

    /// Keeps what the batch changed.
    mutating func commitBatch() { undo = nil }

    /// Puts back every app the batch touched.
    mutating func rollBackBatch() {
        guard let saved = undo else { return }
        undo = nil
        for (id, app) in saved { self[id] = app }
    }

    /// Ids changed since the last call.
    mutating func takeChanged() -> Set<String> {
        defer { changed = [] }
        return changed
    }
}
