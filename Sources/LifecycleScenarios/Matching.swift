import Foundation
public import LifecycleCore
import LifecycleJSON

/// Why a step did not get what its scenario expects: where, and what.
public struct Mismatch: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// For two lists that differ (the callbacks of an app, say): both, and the index where they first do.
    public var lists: (expected: [JSONValue], actual: [JSONValue], index: Int)?
    /// The step (from 1) that failed, once known.
    public var step: Int?

    public init(_ description: String, lists: (expected: [JSONValue], actual: [JSONValue], index: Int)? = nil) {
        self.description = description
        self.lists = lists
    }
}

/// The scenario format's patterns (docs/SCENARIOS.md): an object matches when each of its members does (others
/// may be there), a list a list of the same length item by item, a scalar an equal one; `$subsequence`,
/// `$len`, `$any`, `$absent` (as a member), `$not`, `$gte`, `$lte` and `$contains` say more; `$none` and
/// `$followedBy` (Ordering.swift) say what never appears in a list and what must follow what.
enum Pattern {
    static func match(_ expected: JSONValue, _ actual: JSONValue, at path: String = "$") throws(Mismatch) {
        if let mismatch = check(expected, actual, at: path, explaining: true) { throw mismatch }
    }

    /// Whether `actual` matches, without saying why not: the probes of `$not`, `$subsequence`, `$none` and
    /// `$followedBy`, which try a pattern on item after item and expect most to miss. (Writing each miss's
    /// message, both values as JSON, was a third of the explorer's time, `lifecycled explore`.)
    static func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        check(expected, actual, at: "", explaining: false) == nil
    }

    /// The mismatch, or nil when `actual` matches. Explaining, it says where and what, and an object's members
    /// are tried in the order of their names, so that the same member is named every time; not explaining, it
    /// writes nothing and the mismatch is empty.
    private static func check(_ expected: JSONValue, _ actual: JSONValue, at path: String, explaining: Bool)
        -> Mismatch?
    {
        if case .object(let members) = expected, members.count == 1, let (op, argument) = members.first,
            op.hasPrefix("$")
        {
            return special(op, argument, actual, at: path, explaining: explaining)
        }
        switch expected {
        case .object(let members):
            guard case .object(let have) = actual else {
                return failure(explaining, "\(path): expected an object, got \(text(actual))")
            }
            for (key, pattern) in explaining ? members.sorted(by: { $0.key < $1.key }) : Array(members) {
                if case .object(let inner) = pattern, inner["$absent"]?.boolValue == true {
                    if let value = have[key], value != .null {
                        return failure(explaining, "\(path).\(key): expected absent, got \(text(value))")
                    }
                    continue
                }
                guard let value = have[key] else {
                    return failure(explaining, "\(path): missing key '\(key)' in \(text(actual))")
                }
                if let mismatch = check(
                    pattern, value, at: explaining ? "\(path).\(key)" : path, explaining: explaining)
                {
                    return mismatch
                }
            }
        case .array(let items):
            guard case .array(let have) = actual, have.count == items.count else {
                guard case .array(let have) = actual else {
                    return failure(
                        explaining, "\(path): expected \(text(expected, limit: 600)), got \(text(actual, limit: 600))")
                }
                return failure(
                    explaining,
                    "\(path): expected \(text(expected, limit: 600)), got \(text(actual, limit: 600))",
                    lists: (
                        items, have,
                        zip(items, have).enumerated().first { !matches($0.element.0, $0.element.1) }?.offset
                            ?? min(items.count, have.count)
                    ))
            }
            for (index, (pattern, value)) in zip(items, have).enumerated() {
                if let mismatch = check(
                    pattern, value, at: explaining ? "\(path)[\(index)]" : path, explaining: explaining)
                {
                    return failure(explaining, mismatch.description, lists: (items, have, index))
                }
            }
        case .number(let wanted):
            guard case .number(let have) = actual, abs(wanted - have) <= 1e-6 else {
                return failure(explaining, "\(path): expected \(text(expected)), got \(text(actual))")
            }
        default:
            guard expected == actual else {
                return failure(explaining, "\(path): expected \(text(expected)), got \(text(actual))")
            }
        }
        return nil
    }

    private static func special(
        _ op: String, _ argument: JSONValue, _ actual: JSONValue, at path: String, explaining: Bool
    )
        -> Mismatch?
    {
        switch op {
        case "$any":
            return nil
        case "$len":
            let count: Int? =
                switch actual {
                case .array(let items): items.count
                case .string(let text): text.count
                case .object(let members): members.count
                default: nil
                }
            guard let count, Double(count) == argument.numberValue else {
                return failure(explaining, "\(path): expected length \(text(argument)), got \(text(actual))")
            }
        case "$gte", "$lte":
            guard let bound = argument.numberValue, let have = actual.numberValue,
                op == "$gte" ? have >= bound : have <= bound
            else {
                return failure(
                    explaining, "\(path): expected \(op == "$gte" ? ">=" : "<=") \(text(argument)), got \(text(actual))"
                )
            }
        case "$contains":
            guard let have = actual.stringValue, let wanted = argument.stringValue ?? Optional(text(argument)),
                have.lowercased().contains(wanted.lowercased())
            else {
                return failure(explaining, "\(path): expected text containing \(text(argument)), got \(text(actual))")
            }
        case "$not":
            if matches(argument, actual) {
                return failure(explaining, "\(path): expected not to match \(text(argument)), got \(text(actual))")
            }
        case "$subsequence":
            guard case .array(let wanted) = argument, case .array(let have) = actual else {
                return failure(explaining, "\(path): expected a list, got \(text(actual))")
            }
            var next = 0
            for item in have where next < wanted.count {
                if matches(wanted[next], item) { next += 1 }
            }
            if next < wanted.count {
                return failure(
                    explaining,
                    "\(path): missing \(text(wanted[next])) (in order) within \(text(actual, limit: 600))",
                    lists: (wanted, have, next))
            }
        case "$none":
            do { try Ordering.none(argument, actual, at: path) } catch {
                return failure(explaining, error.description, lists: error.lists)
            }
        case "$followedBy":
            do { try Ordering.followedBy(argument, actual, at: path) } catch {
                return failure(explaining, error.description, lists: error.lists)
            }
        case "$absent":
            return failure(explaining, "\(path): $absent only works as a member's pattern")
        default:
            return failure(explaining, "\(path): unknown operator \(op)")
        }
        return nil
    }

    /// A mismatch that says `message` (and `lists`) when explaining; an empty one, nothing written, when not.
    private static func failure(
        _ explaining: Bool, _ message: @autoclosure () -> String,
        lists: @autoclosure () -> (expected: [JSONValue], actual: [JSONValue], index: Int)? = nil
    ) -> Mismatch {
        explaining ? Mismatch(message(), lists: lists()) : Mismatch("")
    }

    /// A value as compact JSON, cut at `limit` characters.
    static func text(_ value: JSONValue, limit: Int = 300) -> String {
        let whole = String(decoding: JSONWriter.encode(value), as: UTF8.self)
        return whole.count > limit ? String(whole.prefix(limit)) + "…" : whole
    }
}

/// `save`'s and `pluck`'s paths: `items.0.id`, `items[].selector` (a field of every item), `a|b` (the first
/// of those members an object has).
enum Path {
    static func value(_ document: JSONValue, _ path: String) throws(Mismatch) -> JSONValue {
        var current = document
        for part in path.split(separator: ".") {
            switch current {
            case .array(let items):
                guard let index = Int(part), items.indices.contains(index) else {
                    throw Mismatch("path '\(path)': no item \(part)")
                }
                current = items[index]
            case .object(let members):
                guard let next = members[String(part)] else { throw Mismatch("path '\(path)': no key '\(part)'") }
                current = next
            default:
                throw Mismatch("path '\(path)': cannot descend into \(current.typeName)")
            }
        }
        return current
    }

    static func pluck(_ document: JSONValue, _ spec: String) throws(Mismatch) -> JSONValue {
        guard let marker = spec.range(of: "[]") else {
            if spec.contains("|") {
                for key in spec.split(separator: "|") {
                    if let value = document[String(key)] { return value }
                }
                return .null
            }
            return try value(document, spec)
        }
        var head = String(spec[..<marker.lowerBound])
        if head.hasSuffix(".") { head.removeLast() }
        var tail = String(spec[marker.upperBound...])
        if tail.hasPrefix(".") { tail.removeFirst() }
        guard case .array(let items) = try value(document, head) else {
            throw Mismatch("pluck '\(spec)': '\(head)' is not a list")
        }
        var plucked: [JSONValue] = []
        for item in items { plucked.append(tail.isEmpty ? item : try pluck(item, tail)) }
        return .array(plucked)
    }
}
