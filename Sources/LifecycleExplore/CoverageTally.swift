package import LifecycleCore

/// What a set of timelines exercised: app states, state transitions (`from->to`), events by catalogue type,
/// callbacks by selector and scene states. Filled from the entries as the daemon writes them (a suite's) or as
/// the core makes them (an exploration's), through one `add`.
package struct CoverageTally: Equatable, Sendable {
    package var states: Set<String> = []
    package var transitions: Set<String> = []
    package var events: Set<String> = []
    package var callbacks: Set<String> = []
    package var sceneStates: Set<String> = []

    package init() {}

    /// The kinds, in the order reports give them, with their names in text and JSON.
    package static var kinds: [(name: String, key: String, path: WritableKeyPath<CoverageTally, Set<String>>)] {
        [
            ("app states", "states", \.states), ("state transitions", "transitions", \.transitions),
            ("events", "events", \.events), ("callbacks", "callbacks", \.callbacks),
            ("scene states", "sceneStates", \.sceneStates),
        ]
    }

    /// One entry: its kind and the members coverage reads.
    package mutating func add(kind: String, from: String?, to: String?, selector: String?) {
        switch kind {
        case "state":
            if let from, let to {
                states.formUnion([from, to])
                transitions.insert("\(from)->\(to)")
            }
        case "callback":
            if let selector { callbacks.insert(selector) }
        case "sceneState":
            if let from { sceneStates.insert(from) }
            if let to { sceneStates.insert(to) }
        default:
            break
        }
    }

    /// An entry as the daemon writes it.
    package mutating func add(_ entry: JSONValue) {
        guard let kind = entry["kind"]?.stringValue else { return }
        add(
            kind: kind, from: entry["from"]?.stringValue, to: entry["to"]?.stringValue,
            selector: entry["selector"]?.stringValue)
    }

    /// An entry as the core makes it.
    package mutating func add(_ entry: TimelineEntry) {
        switch entry.body {
        case .state(let from, let to): add(kind: "state", from: from.rawValue, to: to.rawValue, selector: nil)
        case .callback(let selector, _, _, _): add(kind: "callback", from: nil, to: nil, selector: selector)
        case .sceneState(let from, let to):
            add(kind: "sceneState", from: from.rawValue, to: to.rawValue, selector: nil)
        default: break
        }
    }

    /// What this holds that `other` does not.
    package func subtracting(_ other: CoverageTally) -> CoverageTally {
        var left = CoverageTally()
        for kind in Self.kinds {
            left[keyPath: kind.path] = self[keyPath: kind.path].subtracting(other[keyPath: kind.path])
        }
        return left
    }

    /// How many items this holds that `other` does not.
    package func newCount(beyond other: CoverageTally?) -> Int {
        guard let other else { return 0 }
        return Self.kinds.reduce(0) { $0 + self[keyPath: $1.path].subtracting(other[keyPath: $1.path]).count }
    }

    package var isEmpty: Bool { Self.kinds.allSatisfy { self[keyPath: $0.path].isEmpty } }

    /// Every item, each as `kind name`, the kinds in the reports' order.
    package var items: [String] {
        Self.kinds.flatMap { kind in self[keyPath: kind.path].sorted().map { "\(kind.name.dropLast()) \($0)" } }
    }

    package mutating func formUnion(_ other: CoverageTally) {
        states.formUnion(other.states)
        transitions.formUnion(other.transitions)
        events.formUnion(other.events)
        callbacks.formUnion(other.callbacks)
        sceneStates.formUnion(other.sceneStates)
    }
}
