import LifecycleCore

/// The patterns about a list's order over time (docs/SCENARIOS.md, "Patterns"): `$none`, no item matches;
/// `$followedBy`, every item that matches `each` is followed by one that matches `by` (before any that matches
/// `before`, within `within` seconds of the items' `time`, with the members `same` names equal; an item that
/// matches `unless` first lets it off). Both are safety
/// rules: what breaks them is a prefix of the list, so an item still waiting at the end of the list holds (the
/// timeline may go on), and a property checked after each step fails at the first step that breaks it.
enum Ordering {
    static func none(_ pattern: JSONValue, _ actual: JSONValue, at path: String) throws(Mismatch) {
        guard case .array(let items) = actual else { throw Mismatch("\(path): expected a list, got \(text(actual))") }
        for (index, item) in items.enumerated() where matches(pattern, item) {
            throw Mismatch(
                "\(path)[\(index)]: expected no item matching \(text(pattern)), got \(text(item))",
                lists: ([pattern], items, index))
        }
    }

    static func followedBy(_ rule: JSONValue, _ actual: JSONValue, at path: String) throws(Mismatch) {
        guard case .array(let items) = actual else { throw Mismatch("\(path): expected a list, got \(text(actual))") }
        guard let each = rule["each"], let by = rule["by"] else {
            throw Mismatch("\(path): $followedBy needs each and by (docs/SCENARIOS.md)")
        }
        let before = rule["before"]
        let unless = rule["unless"]
        let within = rule["within"]?.numberValue
        var same: [(String, String)] = []
        if case .object(let pairs)? = rule["same"] {
            same = pairs.sorted { $0.key < $1.key }.compactMap { key, value in value.stringValue.map { (key, $0) } }
        }
        for (index, item) in items.enumerated() where matches(each, item) {
            let deadline = within.flatMap { seconds in item["time"]?.numberValue.map { $0 + seconds } }
            if within != nil, deadline == nil {
                throw Mismatch("\(path)[\(index)]: \(text(item)) has no time to count \"within\" from")
            }
            var next = index + 1
            while next < items.count {
                let later = items[next]
                if let deadline, let time = later["time"]?.numberValue, time > deadline + 1e-9 {
                    throw Mismatch(
                        "\(path)[\(index)]: \(text(item)) is not followed by \(text(by)) within "
                            + "\(text(.number(within ?? 0))) s: \(path)[\(next)] \(text(later)) comes first")
                }
                if matches(by, later), same.allSatisfy({ item[$0.0] == later[$0.1] }) { break }
                if let unless, matches(unless, later) { break }
                if let before, matches(before, later) {
                    throw Mismatch(
                        "\(path)[\(index)]: \(text(item)) is not followed by \(text(by))"
                            + (same.isEmpty ? "" : " (the same \(same.map(\.0).joined(separator: ", ")))")
                            + " before \(text(before)): \(path)[\(next)] \(text(later)) comes first")
                }
                next += 1
            }
        }
    }

    private static func matches(_ pattern: JSONValue, _ value: JSONValue) -> Bool { Pattern.matches(pattern, value) }

    private static func text(_ value: JSONValue) -> String { Pattern.text(value, limit: 200) }
}
