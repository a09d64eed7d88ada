import Synchronization

/// A device's apps by id, with the bookkeeping that keeps an event's cost independent of how many
/// apps the device holds: which apps have something pending on the clock, the memory in use, which
/// apps changed (for a driver publishing copies), and an undo record while a batch may still fail.
///
/// Changing an app in place costs one hash of its id: the undo record and the changed set are written
/// on an app's first change only (each box carries marks saying it is already in them), and the clocked
/// set and memory in use are updated only when the change moves them.
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
    /// While a batch is applied: each touched app as it was before the batch (nil: it did not exist). Emptied,
    /// not freed, after a batch: the next batch reuses its storage.
    private var undo: [String: AppInstance?] = [:]
    private var inBatch = false
    /// The marks carried by the boxes already in `changed` and by those already in `undo`: a fresh mark
    /// (never used before, by any table) replaces the old one whenever the set is emptied, so an old mark
    /// never matches again. Copies of a table share the marks along with the sets they stand for.
    private var changedMark = Mark.fresh()
    private var undoMark = Mark.none
    /// The app last changed or focused, and where it sits in `storage`: an event addresses one app at nearly
    /// every step, and comparing an id costs far less than hashing it. Dropped whenever an app is added or
    /// removed (which may move the others).
    private var recentID: String?
    private var recentIndex: [String: AppBox].Index?

    private enum CodingKeys: String, CodingKey {
        case storage
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for (id, app) in try container.decode([String: AppInstance].self, forKey: .storage) { self[id] = app }
        _ = takeChanged()
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

    func contains(_ id: String) -> Bool { recentID == id || storage[id] != nil }

    /// Where app `id` sits in `storage`, if it exists: the remembered place when it is the recent app.
    @inline(__always) private func index(of id: String) -> [String: AppBox].Index? {
        if recentID == id { return recentIndex }
        return storage.index(forKey: id)
    }

    /// Remembers app `id` (which exists) as the recent app, so the steps of an event about it find it without a hash.
    mutating func focus(_ id: String) {
        guard recentID != id else { return }
        recentID = id
        recentIndex = storage.index(forKey: id)!
    }

    subscript(id: String) -> AppInstance? {
        get { index(of: id).map { storage.values[$0].value } }
        set { replace(id, with: newValue.map(AppBox.init)) }
    }

    /// An app that exists, for reading and changing in place.
    subscript(existing id: String) -> AppInstance {
        _read { yield storage.values[index(of: id)!].value }
        _modify {
            let index = index(of: id)!
            let before = storage.values[index].footprint
            if inBatch, storage.values[index].undoMark != undoMark { saveForUndo(id, storage.values[index].value) }
            if !isKnownUniquelyReferenced(&storage.values[index]) {
                storage.values[index] = AppBox(storage.values[index].value)
            }
            recentID = id
            recentIndex = index
            yield &storage.values[index].value
            let box = storage.values[index]
            if box.changedMark != changedMark {
                changed.insert(id)
                box.changedMark = changedMark
            }
            if inBatch { box.undoMark = undoMark }
            account(id, from: before, to: box.footprint)
        }
    }

    /// Takes `other`'s app `id` (or its absence) without copying it. `noted`: recorded in the changed set, as
    /// any change is; a reader's copy catching up (which never asks what changed) leaves it out.
    mutating func share(_ id: String, from other: AppTable, noted: Bool = true) {
        replace(id, with: other.storage[id], noted: noted)
    }

    /// A table of the apps `ids` (those that exist), sharing their boxes: what a reader's copy takes them from
    /// (`share`). It keeps none of a table's totals or records, which no one reads of it.
    func boxes(of ids: Set<String>) -> AppTable {
        var table = AppTable()
        table.storage.reserveCapacity(ids.count)
        for id in ids {
            if let box = storage[id] { table.storage[id] = box }
        }
        return table
    }

    /// Puts `box` (nil: nothing) in the place of app `id`, keeping every record true (the changed set only when
    /// `noted`).
    private mutating func replace(_ id: String, with box: AppBox?, noted: Bool = true) {
        recentID = nil
        recentIndex = nil
        let old = storage[id]
        if inBatch, undo.index(forKey: id) == nil { undo[id] = .some(old?.value) }
        storage[id] = box
        if noted { changed.insert(id) }
        account(id, from: old?.footprint ?? .absent, to: box?.footprint ?? .absent)
    }

    private mutating func saveForUndo(_ id: String, _ app: AppInstance) {
        if undo.index(forKey: id) == nil { undo[id] = .some(app) }
    }

    private mutating func account(_ id: String, from before: Footprint, to after: Footprint) {
        inUseMB += after.memoryMB - before.memoryMB
        guard after.clocked != before.clocked else { return }
        if after.clocked { clocked.insert(id) } else { clocked.remove(id) }
    }

    /// The clocked apps in the order they were added, so deadlines fire deterministically (a copy: visiting
    /// them may change the set).
    var clockedInOrder: ClockedApps {
        switch clocked.count {
        case 0: ClockedApps(one: nil, many: [])
        case 1: ClockedApps(one: clocked.first, many: [])
        default:
            ClockedApps(one: nil, many: clocked.sorted { storage[$0]!.value.ordinal < storage[$1]!.value.ordinal })
        }
    }

    /// Starts recording what a batch changes.
    mutating func beginBatch() {
        inBatch = true
        undoMark = .fresh()
    }

    /// Keeps what the batch changed.
    mutating func commitBatch() {
        inBatch = false
        undoMark = .none
        if !undo.isEmpty { undo.removeAll(keepingCapacity: true) }
    }

    /// Puts back every app the batch touched.
    mutating func rollBackBatch() {
        guard inBatch else { return }
        let saved = undo
        commitBatch()
        for (id, app) in saved { replace(id, with: app.map(AppBox.init)) }
    }

    /// What is wrong with the running totals, recomputed from every app (nil: nothing); for tests, which
    /// check it after every step of a random walk.
    var bookkeepingFailure: String? {
        var memory = 0
        var shouldClock: Set<String> = []
        for (id, box) in storage {
            let footprint = box.footprint
            memory += footprint.memoryMB
            if footprint.clocked { shouldClock.insert(id) }
        }
        if memory != inUseMB { return "memory in use \(inUseMB) MB, the apps hold \(memory) MB" }
        if shouldClock != clocked { return "clocked apps \(clocked.sorted()), should be \(shouldClock.sorted())" }
        if inBatch || !undo.isEmpty { return "a batch is still open" }
        return nil
    }

    /// Ids changed since the last call.
    mutating func takeChanged() -> Set<String> {
        defer {
            changed = []
            changedMark = .fresh()
        }
        return changed
    }
}

/// What an app adds to a table's totals: the memory it holds and whether the clock must visit it.
struct Footprint: Equatable {
    var memoryMB: Int
    var clocked: Bool

    static let absent = Footprint(memoryMB: 0, clocked: false)
}

/// Which boxes are already in a table's changed set or undo record: a number drawn once, process-wide, so
/// two tables never hold the same mark unless one is a copy of the other.
struct Mark: Equatable, Sendable {
    private var number: UInt64

    /// Carried by no box.
    static let none = Mark(number: 0)

    private static let drawn = Atomic<UInt64>(0)

    static func fresh() -> Mark { Mark(number: drawn.wrappingAdd(1, ordering: .relaxed).newValue) }
}

/// The clocked apps in order, without an array when there is one (the common case).
struct ClockedApps: Sequence {
    var one: String?
    var many: [String]

    func makeIterator() -> Iterator { Iterator(one: one, many: many.makeIterator()) }

    struct Iterator: IteratorProtocol {
        var one: String?
        var many: IndexingIterator<[String]>

        mutating func next() -> String? {
            if let id = one {
                one = nil
                return id
            }
            return many.next()
        }
    }
}

/// One app of a table, shared between copies of the table until one of them changes it.
///
/// Its fields are read and written only through the table that holds it, which changes a box only when it
/// holds it alone (copying it first otherwise), on one thread at a time; so the runtime's exclusivity checks
/// on these class fields (a call per field access, about a tenth of an event's instructions) are left out.
final class AppBox: @unchecked Sendable {
    @exclusivity(unchecked) var value: AppInstance
    /// Set by the table that holds the box alone, when it records the box in its changed set or undo record.
    @exclusivity(unchecked) var changedMark = Mark.none
    @exclusivity(unchecked) var undoMark = Mark.none

    init(_ value: AppInstance) { self.value = value }

    /// Field by field: reading `value` whole would copy the app.
    var footprint: Footprint {
        Footprint(
            memoryMB: value.state == .notRunning ? 0 : value.configuration.memoryMB,
            clocked: value.state == .background || !value.backgroundTasks.isEmpty || value.windowEnd != nil
                || value.scheduledTasks != nil
                || value.idleSince != nil
                || value.sceneBook?.sessions.contains(where: { $0.state == .background }) == true)
    }
}
