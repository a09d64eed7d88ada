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
        if case .object(let members) = expected, members.count == 1, let (op, argument) = members.first,
            op.hasPrefix("$")
        {
            return try special(op, argument, actual, at: path)
        }
        switch expected {
        case .object(let members):
            guard case .object(let have) = actual else {
                throw Mismatch("\(path): expected an object, got \(text(actual))")
            }
            for (key, pattern) in members.sorted(by: { $0.key < $1.key }) {
                if case .object(let inner) = pattern, inner["$absent"]?.boolValue == true {
                    if let value = have[key], value != .null {
                        throw Mismatch("\(path).\(key): expected absent, got \(text(value))")
                    }
                    continue
                }
                guard let value = have[key] else { throw Mismatch("\(path): missing key '\(key)' in \(text(actual))") }
                try match(pattern, value, at: "\(path).\(key)")
            }
        case .array(let items):
            guard case .array(let have) = actual, have.count == items.count else {
                let index: Int
                if case .array(let have) = actual {
                    index =
                        zip(items, have).enumerated().first { (try? match($0.element.0, $0.element.1)) == nil }?.offset
                        ?? min(items.count, have.count)
                    throw Mismatch(
                        "\(path): expected \(text(expected, limit: 600)), got \(text(actual, limit: 600))",
                        lists: (items, have, index))
                }
                throw Mismatch("\(path): expected \(text(expected, limit: 600)), got \(text(actual, limit: 600))")
            }
            for (index, (pattern, value)) in zip(items, have).enumerated() {
                do {
                    try match(pattern, value, at: "\(path)[\(index)]")
                } catch {
                    throw Mismatch(error.description, lists: (items, have, index))
                }
            }
        case .number(let wanted):
            guard case .number(let have) = actual, abs(wanted - have) <= 1e-6 else {
                throw Mismatch("\(path): expected \(text(expected)), got \(text(actual))")
            }
        default:
            guard expected == actual else { throw Mismatch("\(path): expected \(text(expected)), got \(text(actual))") }
        }
    }

    private static func special(_ op: String, _ argument: JSONValue, _ actual: JSONValue, at path: String)
        throws(Mismatch)
    {
        switch op {
        case "$any":
            return
        case "$len":
            let count: Int? =
                switch actual {
                case .array(let items): items.count
                case .string(let text): text.count
                case .object(let members): members.count
                default: nil
                }
            guard let count, Double(count) == argument.numberValue else {
                throw Mismatch("\(path): expected length \(text(argument)), got \(text(actual))")
            }
        case "$gte", "$lte":
            guard let bound = argument.numberValue, let have = actual.numberValue,
                op == "$gte" ? have >= bound : have <= bound
            else {
                throw Mismatch("\(path): expected \(op == "$gte" ? ">=" : "<=") \(text(argument)), got \(text(actual))")
            }
        case "$contains":
            guard let have = actual.stringValue, let wanted = argument.stringValue ?? Optional(text(argument)),
                have.lowercased().contains(wanted.lowercased())
            else { throw Mismatch("\(path): expected text containing \(text(argument)), got \(text(actual))") }
        case "$not":
            if (try? match(argument, actual, at: path)) != nil {
                throw Mismatch("\(path): expected not to match \(text(argument)), got \(text(actual))")
            }
        case "$subsequence":
            guard case .array(let wanted) = argument, case .array(let have) = actual else {
                throw Mismatch("\(path): expected a list, got \(text(actual))")
            }
            var next = 0
            for item in have where next < wanted.count {
                if (try? match(wanted[next], item, at: path)) != nil { next += 1 }
            }
            if next < wanted.count {
                throw Mismatch(
                    "\(path): missing \(text(wanted[next])) (in order) within \(text(actual, limit: 600))",
                    lists: (wanted, have, next))
            }
        case "$none":
            try Ordering.none(argument, actual, at: path)
        case "$followedBy":
            try Ordering.followedBy(argument, actual, at: path)
        case "$absent":
            throw Mismatch("\(path): $absent only works as a member's pattern")
        default:
            throw Mismatch("\(path): unknown operator \(op)")
        }
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
