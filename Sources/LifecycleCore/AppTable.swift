/// A device's apps by id, with the bookkeeping that keeps an event's cost independent of how many
/// apps the device holds: which apps have something pending on the clock, the memory in use, which
/// apps changed (for a driver publishing copies), and an undo record while a batch may still fail.
struct AppTable: Sendable, Codable, Equatable {
    /// Each app in a box of its own, so copies of a table (a reader's, an undo record) share the apps
    /// they do not change: changing one app copies that app only.
    private var storage: [String: AppBox] = [:]
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

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storage.mapValues(\.value), forKey: .storage)
    }

    static func == (lhs: AppTable, rhs: AppTable) -> Bool {
        lhs.storage.count == rhs.storage.count
            && lhs.storage.allSatisfy { id, box in rhs.storage[id].map { $0 === box || $0.value == box.value } ?? false
            }
    }

    subscript(id: String) -> AppInstance? {
        get { storage[id]?.value }
        set {
            willChange(id)
            storage[id] = newValue.map(AppBox.init)
            didChange(id)
        }
    }

    /// An app that exists, for reading and changing in place.
    subscript(existing id: String) -> AppInstance {
        get { storage[id]!.value }
        _modify {
            willChange(id)
            if !isKnownUniquelyReferenced(&storage[id]!) { storage[id] = AppBox(storage[id]!.value) }
            yield &storage[id]!.value
            didChange(id)
        }
    }

    /// Takes `other`'s app `id` (or its absence) without copying it.
    mutating func share(_ id: String, from other: AppTable) {
        willChange(id)
        storage[id] = other.storage[id]
        didChange(id)
    }

    private mutating func willChange(_ id: String) {
        if undo != nil, undo![id] == nil { undo![id] = .some(storage[id]?.value) }
        if let app = storage[id]?.value, app.state != .notRunning { inUseMB -= app.configuration.memoryMB }
    }

    private mutating func didChange(_ id: String) {
        changed.insert(id)
        guard let app = storage[id]?.value else {
            clocked.remove(id)
            return
        }
        if app.state != .notRunning { inUseMB += app.configuration.memoryMB }
        if app.state == .background || !app.backgroundTasks.isEmpty || app.windowEnd != nil || app.idleSince != nil
            || app.sessions.contains(where: { $0.state == .background })
        {
            clocked.insert(id)
        } else {
            clocked.remove(id)
        }
    }

    /// The clocked apps in the order they were added, so deadlines fire deterministically.
    var clockedInOrder: [String] {
        clocked.sorted { storage[$0]!.value.ordinal < storage[$1]!.value.ordinal }
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

/// One app of a table, shared between copies of the table until one of them changes it.
final class AppBox: @unchecked Sendable {
    var value: AppInstance

    init(_ value: AppInstance) { self.value = value }
}
