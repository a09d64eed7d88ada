import Foundation
import LifecycleCore

/// One way a document does not fit the scenario format: where (a JSON path from the document's top, indices
/// from 0: `steps[2].expcet` is the third step's member `expcet`; empty for the whole document) and what.
public struct FormatProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    /// The valid names, when a name was not one of them.
    public var allowed: [String] = []
    /// The closest of `allowed`, when one is close (`NearestName`).
    public var didYouMean: String?

    public init(path: String, message: String, allowed: [String] = [], didYouMean: String? = nil) {
        self.path = path
        self.message = message
        self.allowed = allowed
        self.didYouMean = didYouMean
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Holds a JSON value to a JSON Schema (draft 2020-12) with the keywords the scenario format's schema uses:
/// `$ref` (to `#/$defs/…`), `type`, `const`, `enum`, `minLength`, `pattern`, `minimum`, `maximum`, `minItems`,
/// `items`, `required`, `properties`, `additionalProperties`, `propertyNames`, `minProperties`,
/// `maxProperties`, `dependentRequired`, `if`/`then`/`else`, `not`, `anyOf`; `title` names a value in a
/// message, `description` of a `not` is its message. Any other keyword is an annotation: `unsupported` lists
/// those a schema uses, so that a test keeps the schema within what this validator holds.
struct SchemaValidator {
    let root: JSONValue

    /// The keywords `problems` applies, and those it reads as annotations.
    static let applied: Set<String> = [
        "$ref", "type", "const", "enum", "minLength", "pattern", "minimum", "maximum", "minItems", "items",
        "required", "properties", "additionalProperties", "propertyNames", "minProperties", "maxProperties",
        "dependentRequired", "if", "then", "else", "not", "anyOf",
    ]
    static let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description"]

    /// Every problem of `value` against the root schema, in document order.
    func problems(of value: JSONValue) -> [FormatProblem] {
        var cache = Patterns()
        return check(value, root, at: [], &cache)
    }

    /// The keywords of `schema` and of every schema inside it that this validator does not apply.
    func unsupported() -> Set<String> {
        var found: Set<String> = []
        func walk(_ schema: JSONValue, isSchema: Bool) {
            guard case .object(let members) = schema else { return }
            for (key, value) in members {
                if isSchema, !Self.applied.contains(key), !Self.annotations.contains(key) { found.insert(key) }
                switch key {
                case "$defs", "properties":
                    if case .object(let inner) = value { inner.values.forEach { walk($0, isSchema: true) } }
                case "anyOf":
                    if case .array(let items) = value { items.forEach { walk($0, isSchema: true) } }
                case "items", "additionalProperties", "propertyNames", "if", "then", "else", "not":
                    walk(value, isSchema: true)
                default:
                    break
                }
            }
        }
        walk(root, isSchema: true)
        return found
    }

    /// Compiled `pattern`s, by their text, for one validation.
    struct Patterns {
        var compiled: [String: NSRegularExpression] = [:]

        mutating func matches(_ pattern: String, _ text: String) -> Bool {
            let expression: NSRegularExpression
            if let known = compiled[pattern] {
                expression = known
            } else {
                // The schema's own patterns: one that does not compile is the schema's mistake, which a test of
                // the schema finds; here it matches nothing.
                guard let made = try? NSRegularExpression(pattern: pattern) else { return false }
                compiled[pattern] = made
                expression = made
            }
            return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    /// A JSON path without its `$`: `steps[2].expect["$len"]`.
    static func text(_ path: [Step]) -> String {
        var out = ""
        for step in path {
            switch step {
            case .index(let index): out += "[\(index)]"
            case .key(let key):
                let plain =
                    !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" || $0 == "-" }
                if plain {
                    out += out.isEmpty ? key : ".\(key)"
                } else {
                    out += "[\(Pattern.text(.string(key)))]"
                }
            }
        }
        return out
    }

    private func resolve(_ reference: String) -> JSONValue {
        var current = root
        for part in reference.dropFirst(2).split(separator: "/") { current = current[String(part)] ?? .null }
        return current
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, at path: [Step], _ cache: inout Patterns)
        -> [FormatProblem]
    {
        guard case .object(let keywords) = schema else { return [] }
        func problem(_ message: String, at where: [Step]? = nil) -> FormatProblem {
            FormatProblem(path: Self.text(`where` ?? path), message: message)
        }
        var found: [FormatProblem] = []
        if let reference = keywords["$ref"]?.stringValue {
            found += check(value, resolve(reference), at: path, &cache)
        }
        if let type = keywords["type"], !Self.fits(value, type) {
            return found + [problem("must be \(describe(schema)), not \(Self.shown(value))")]
        }
        if let constant = keywords["const"], constant != value {
            found.append(problem("must be \(describe(schema)), not \(Self.shown(value))"))
        }
        if case .array(let options)? = keywords["enum"], !options.contains(value) {
            let names = options.compactMap(\.stringValue)
            var unknown = problem("must be one of \(names.joined(separator: ", ")), not \(Self.shown(value))")
            unknown.allowed = names
            if let typed = value.stringValue, let nearest = NearestName.among(names, to: typed) {
                unknown.didYouMean = nearest
                unknown.message += "; did you mean \(nearest)?"
            }
            found.append(unknown)
        }
        switch value {
        case .string(let text):
            if let least = keywords["minLength"]?.numberValue, Double(text.count) < least {
                found.append(problem("must be \(describe(schema)), not the empty string"))
            }
            if let pattern = keywords["pattern"]?.stringValue, !cache.matches(pattern, text) {
                found.append(problem("must be \(describe(schema)), not \(Self.shown(value))"))
            }
        case .number(let number):
            if let least = keywords["minimum"]?.numberValue, number < least {
                found.append(problem("must be \(describe(schema)), not \(Self.shown(value))"))
            } else if let most = keywords["maximum"]?.numberValue, number > most {
                found.append(problem("must be \(describe(schema)), not \(Self.shown(value))"))
            }
        case .array(let items):
            if let least = keywords["minItems"]?.numberValue, Double(items.count) < least {
                found.append(problem("must hold at least \(Int(least)) item\(least == 1 ? "" : "s")"))
            }
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() {
                    found += check(item, itemSchema, at: path + [.index(index)], &cache)
                }
            }
        case .object(let members):
            found += checkObject(members, keywords, schema, at: path, &cache)
        default:
            break
        }
        if let condition = keywords["if"] {
            let holds = check(value, condition, at: path, &cache).isEmpty
            if let branch = keywords[holds ? "then" : "else"] { found += check(value, branch, at: path, &cache) }
        }
        if let negated = keywords["not"], check(value, negated, at: path, &cache).isEmpty {
            found.append(problem(negated["description"]?.stringValue ?? "must not be \(describe(negated))"))
        }
        if case .array(let branches)? = keywords["anyOf"] {
            let results = branches.map { check(value, $0, at: path, &cache) }
            if !results.contains(where: \.isEmpty) {
                // The one branch of the value's type, when there is one and it found something inside the value,
                // says most; else every branch is named.
                let ofType = branches.indices.filter { typeFits(value, branches[$0]) }
                let here = Self.text(path)
                if ofType.count == 1, results[ofType[0]].allSatisfy({ $0.path != here }) {
                    found += results[ofType[0]]
                } else {
                    let wanted = branches.map(describe).joined(separator: " or ")
                    found.append(problem("must be \(wanted), not \(Self.shown(value))"))
                }
            }
        }
        return found
    }

    private func checkObject(
        _ members: [String: JSONValue], _ keywords: [String: JSONValue], _ schema: JSONValue, at path: [Step],
        _ cache: inout Patterns
    ) -> [FormatProblem] {
        var found: [FormatProblem] = []
        let what = schema["title"]?.stringValue ?? "this object"
        let properties: [String: JSONValue]
        if case .object(let known)? = keywords["properties"] { properties = known } else { properties = [:] }
        // Names in the order the schema gives them, for the messages.
        let names = propertyOrder(of: schema).filter { properties[$0] != nil }
        if case .array(let required)? = keywords["required"] {
            for name in required.compactMap(\.stringValue) where members[name] == nil {
                found.append(FormatProblem(path: Self.text(path + [.key(name)]), message: "missing: \(what) needs it"))
            }
        }
        if case .object(let dependent)? = keywords["dependentRequired"] {
            for (name, needed) in dependent.sorted(by: { $0.key < $1.key }) where members[name] != nil {
                guard case .array(let others) = needed else { continue }
                for other in others.compactMap(\.stringValue) where members[other] == nil {
                    found.append(
                        FormatProblem(
                            path: Self.text(path + [.key(name)]), message: "\(name) is only meaningful with \(other)"))
                }
            }
        }
        if let least = keywords["minProperties"]?.numberValue, Double(members.count) < least {
            found.append(
                FormatProblem(
                    path: Self.text(path),
                    message: least == 1
                        ? "must not be empty: an empty object checks nothing"
                        : "must have at least \(Int(least)) members"))
        }
        if let most = keywords["maxProperties"]?.numberValue, Double(members.count) > most {
            found.append(
                FormatProblem(
                    path: Self.text(path),
                    message:
                        "must have \(most == 1 ? "exactly one member" : "at most \(Int(most)) members"), not \(members.count): \(members.keys.sorted().joined(separator: ", "))"
                ))
        }
        for key in members.keys.sorted() {
            let value = members[key]!
            let here = path + [.key(key)]
            if let nameSchema = keywords["propertyNames"] {
                for var problem in check(.string(key), nameSchema, at: here, &cache) {
                    problem.message = "\(key) is not a name allowed here: \(problem.message)"
                    found.append(problem)
                }
            }
            if let propertySchema = properties[key] {
                found += check(value, propertySchema, at: here, &cache)
            } else if let additional = keywords["additionalProperties"] {
                if additional == .bool(false) {
                    found.append(
                        FormatProblem(
                            path: Self.text(here),
                            message: "\(key) is not a member of \(what)"
                                + (NearestName.among(names, to: key).map { "; did you mean \($0)?" } ?? "")
                                + " (allowed: \(names.joined(separator: ", ")))",
                            allowed: names, didYouMean: NearestName.among(names, to: key)))
                } else {
                    found += check(value, additional, at: here, &cache)
                }
            }
        }
        return found
    }

    /// The members of `properties` in the order the schema's text gives them (a parsed object has none): the
    /// scenario format's own order, which the messages follow.
    private func propertyOrder(of schema: JSONValue) -> [String] {
        guard case .object(let properties)? = schema["properties"] else { return [] }
        let order = ScenarioFormat.memberOrder
        return properties.keys.sorted { (order[$0] ?? .max, $0) < (order[$1] ?? .max, $1) }
    }

    /// How a message names what `schema` holds: its `title`, else what its keywords say.
    func describe(_ schema: JSONValue) -> String {
        if let title = schema["title"]?.stringValue { return title }
        if let reference = schema["$ref"]?.stringValue { return describe(resolve(reference)) }
        if let constant = schema["const"] { return Pattern.text(constant) }
        if case .array(let branches)? = schema["anyOf"] { return branches.map(describe).joined(separator: " or ") }
        let least = schema["minimum"]?.numberValue.map(\.plainText)
        let most = schema["maximum"]?.numberValue.map(\.plainText)
        let range =
            switch (least, most) {
            case (let least?, let most?): " from \(least) to \(most)"
            case (let least?, nil): " of at least \(least)"
            case (nil, let most?): " of at most \(most)"
            case (nil, nil): ""
            }
        switch schema["type"] {
        case .string("integer")?: return "a whole number" + range
        case .string("number")?: return "a number" + range
        case .string("string")?:
            if let pattern = schema["pattern"]?.stringValue { return "a string matching \(pattern)" }
            if schema["minLength"] != nil { return "a string of at least one character" }
            return "a string"
        case .string("object")?: return "an object"
        case .string("array")?: return "a list"
        case .string("boolean")?: return "true or false"
        default: return "a value of another kind"
        }
    }

    private static func fits(_ value: JSONValue, _ type: JSONValue) -> Bool {
        if case .array(let types) = type { return types.contains { fits(value, $0) } }
        switch (type.stringValue, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            return true
        case ("integer", .number(let number)):
            return number.rounded() == number
        default:
            return false
        }
    }

    /// Whether `branch` (through its `$ref`) takes values of `value`'s kind at all.
    private func typeFits(_ value: JSONValue, _ branch: JSONValue) -> Bool {
        if let reference = branch["$ref"]?.stringValue { return typeFits(value, resolve(reference)) }
        guard let type = branch["type"] else { return true }
        if value.numberValue != nil, type == .string("integer") { return true }
        return Self.fits(value, type)
    }

    /// A value as a message shows it: its kind and, for a scalar, itself.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string: "a string \(Pattern.text(value, limit: 60))"
        case .number: "a number \(Pattern.text(value))"
        case .bool, .null: Pattern.text(value)
        case .array: "a list"
        case .object: "an object"
        }
    }
}
