import Foundation
public import LifecycleCore
import LifecycleJSON

/// How a runner's requests reach a daemon: in this process, or over HTTP.
public protocol ScenarioTransport: Sendable {
    /// One request; `path` holds its query. Throws when no answer came (a refused connection, a timeout).
    func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, headers: [(String, String)], body: [UInt8])
}

/// One scenario file (docs/SCENARIOS.md): its name and its steps, as written.
public struct Scenario: Sendable {
    public var file: String
    public var name: String
    public var steps: [JSONValue]

    /// Where `--seed` applies it (`namespace`); nil: `default`. A run of `lifecycled check` ignores it.
    public var namespace: String?

    public init(file: String, bytes: [UInt8]) throws {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw Mismatch("\(file) is not JSON: \(error)")
        }
        try self.init(file: file, document: document)
    }

    /// A scenario of these steps, as read from a file already held to the format.
    package init(file: String, name: String, steps: [JSONValue], namespace: String? = nil) {
        self.file = file
        self.name = name
        self.steps = steps
        self.namespace = namespace
    }

    /// The versions of the format this runner reads (`format`; absent: 1).
    public static let formats: [Double] = [1]

    public init(file: String, document: JSONValue) throws(Mismatch) {
        self.file = file
        if let format = document["format"], !Self.formats.contains(where: { format == .number($0) }) {
            throw Mismatch(
                "\(file) is written in format \(Pattern.text(format)) of scenarios; this runner reads format 1 "
                    + "(docs/SCENARIOS.md)")
        }
        let problems = ScenarioFormat.problems(in: document)
        guard problems.isEmpty else {
            throw Mismatch(
                "\(file) does not fit the scenario format: \(problems.map(\.description).joined(separator: "; "))")
        }
        guard let name = document["name"]?.stringValue, case .array(let steps)? = document["steps"] else {
            throw Mismatch("\(file) is not a scenario: it needs a name and a list of steps (docs/SCENARIOS.md)")
        }
        self.name = name
        self.steps = steps
        namespace = document["namespace"]?.stringValue
    }

    /// The scenario files a path names: the file, or a folder's `*.json` files in name order.
    public static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}

/// Runs scenarios step by step as the repository's conformance runner does: `${run}` and saved `${var}`s
/// substituted, each answer's status, headers and body held to the step's patterns. With a namespace, every
/// `/v1/…` path of the steps (and of their header patterns) moves under `/v1/namespaces/NAME/`; `default`
/// is the unprefixed paths' namespace, so the steps run as written.
public struct ScenarioRunner: Sendable {
    public let transport: any ScenarioTransport
    public var namespace: String?
    public var token: String?
    /// Whether `expect` and `expectHeaders` are held to the answers (statuses always are): an import may
    /// ignore them.
    public var checksExpectations = true
    /// What `${run}` stands for; nil, a token of its own for each run (an explorer's reads pin it).
    package var runToken: String?
    /// The last answer parsed, kept while this is set (an explorer's reads of one state, `ParsedAnswer`).
    package var parsedAnswer: ParsedAnswer?

    /// The most bytes substitution may make of one step (every string of it that holds a variable, counted as
    /// it becomes) and the most a saved value may hold as text: a step past it stops the run before it is built.
    /// A daemon's `--max-body-bytes` (an import's, and what `lifecycled check` uses).
    public var limit: Int

    public init(
        transport: any ScenarioTransport, namespace: String? = nil, token: String? = nil, limit: Int = 1 << 20
    ) {
        self.transport = transport
        self.namespace = namespace
        self.token = token
        self.limit = limit
    }

    /// The paths a namespace leaves where they are: the namespaces themselves and the spec.
    static let unscoped = ["/v1/namespaces", "/v1/openapi.yaml"]

    /// Runs every step; throws the first `Mismatch`, naming the step.
    public func run(_ scenario: Scenario) throws {
        var variables: [String: JSONValue] = [
            "run": .string(runToken ?? String(UUID().uuidString.lowercased().prefix(10)))
        ]
        for (index, written) in scenario.steps.enumerated() {
            let step: JSONValue
            do {
                var budget = Budget(limit: limit)
                step = scoped(try Self.substitute(written, variables, within: &budget))
            } catch {
                var mismatch = Mismatch("step \(index + 1): \(error.description)")
                mismatch.step = index + 1
                throw mismatch
            }
            if let seconds = step["sleep"]?.numberValue {
                Thread.sleep(forTimeInterval: seconds)
                continue
            }
            guard let action = step["do"]?.stringValue, let space = action.firstIndex(of: " ") else {
                var mismatch = Mismatch("step \(index + 1): it needs \"do\": \"METHOD /path\"")
                mismatch.step = index + 1
                throw mismatch
            }
            let label = "step \(index + 1) (\(action))"
            do {
                try perform(
                    step, method: String(action[..<space]), path: String(action[action.index(after: space)...]),
                    &variables)
            } catch {
                var mismatch = Mismatch("\(label): \(error.description)", lists: error.lists)
                mismatch.step = index + 1
                throw mismatch
            }
        }
    }

    private func perform(_ step: JSONValue, method: String, path: String, _ variables: inout [String: JSONValue])
        throws(Mismatch)
    {
        var headers: [(String, String)] = [("Accept", "application/json")]
        var body: [UInt8]?
        if let raw = step["rawBody"]?.stringValue {
            body = Array(raw.utf8)
        } else if let value = step["body"] {
            body = JSONWriter.encode(value)
        }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if case .object(let extra)? = step["headers"] {
            for (name, value) in extra.sorted(by: { $0.key < $1.key }) {
                headers.removeAll { $0.0.lowercased() == name.lowercased() }
                headers.append((name, value.stringValue ?? Pattern.text(value)))
            }
        }
        let answer: (status: Int, headers: [(String, String)], body: [UInt8])
        do {
            answer = try transport.exchange(method: method, path: path, headers: headers, body: body)
        } catch {
            throw Mismatch("no answer: \(error)")
        }
        let shown = String(decoding: answer.body.prefix(400), as: UTF8.self)
        if let wanted = step["status"]?.numberValue {
            guard Double(answer.status) == wanted else {
                throw Mismatch("expected status \(Int(wanted)), got \(answer.status), body \(shown)")
            }
        } else if !(200..<300).contains(answer.status) {
            throw Mismatch("status \(answer.status), body \(shown)")
        }
        var document: JSONValue = .null
        if !answer.body.isEmpty {
            do {
                document = try parsedAnswer?.parse(answer.body) ?? JSONParser.parse(answer.body)
            } catch {
                if step["expect"] != nil || step["save"] != nil { throw Mismatch("the answer is not JSON: \(shown)") }
            }
        }
        let received = Dictionary(answer.headers.map { ($0.0.lowercased(), $0.1) }) { first, _ in first }
        if checksExpectations, case .object(let patterns)? = step["expectHeaders"] {
            for (name, pattern) in patterns.sorted(by: { $0.key < $1.key }) {
                guard let value = received[name.lowercased()] else { throw Mismatch("missing header \(name)") }
                try Pattern.match(pattern, .string(value), at: "header \(name)")
            }
        }
        if checksExpectations, let pattern = step["expect"] {
            let actual =
                try step["pluck"]?.stringValue.map { spec throws(Mismatch) in try Path.pluck(document, spec) }
                ?? document
            try Pattern.match(pattern, actual)
        }
        if case .object(let saves)? = step["save"] {
            for (name, spec) in saves.sorted(by: { $0.key < $1.key }) {
                variables[name] = try saved(try Path.pluck(document, spec.stringValue ?? ""), as: name)
            }
        }
        if case .object(let saves)? = step["saveHeaders"] {
            for (name, header) in saves.sorted(by: { $0.key < $1.key }) {
                guard let value = received[(header.stringValue ?? "").lowercased()] else {
                    throw Mismatch("missing header \(header.stringValue ?? "")")
                }
                variables[name] = try saved(.string(value), as: name)
            }
        }
    }

    /// `value`, if it is no larger as text than `limit`.
    private func saved(_ value: JSONValue, as name: String) throws(Mismatch) -> JSONValue {
        let bytes = Self.text(of: value).utf8.count
        guard bytes <= limit else {
            throw Mismatch(
                "the value saved as ${\(name)} is \(bytes) bytes, more than a saved value may be (\(limit), the "
                    + "daemon's --max-body-bytes)")
        }
        return value
    }

    /// `${name}` replaced by the variable's value: a whole string that is one variable takes its value as it
    /// is (a number stays a number), else its text. `$${` is a literal `${`; any other `$` is itself.
    /// `budget` is what the strings made may still take: a string that would take more is not built, and the
    /// step stops.
    static func substitute(_ value: JSONValue, _ variables: [String: JSONValue], within budget: inout Budget)
        throws(Mismatch) -> JSONValue
    {
        switch value {
        case .string(let text):
            guard text.utf8.contains(UInt8(ascii: "$")) else { return value }
            let pieces = try Self.pieces(of: text, variables)
            if pieces.count == 1, case .variable(let whole, let found) = pieces[0], found.stringValue == nil {
                try budget.spend(Self.text(of: found).utf8.count, for: whole)
                return found
            }
            var size = 0
            for piece in pieces {
                switch piece {
                case .text(let literal): size += literal.utf8.count
                case .variable(_, let found): size += Self.text(of: found).utf8.count
                }
            }
            try budget.spend(size, for: nil)
            var result = ""
            result.reserveCapacity(size)
            for piece in pieces {
                switch piece {
                case .text(let literal): result += literal
                case .variable(_, let found): result += Self.text(of: found)
                }
            }
            return .string(result)
        case .array(let items):
            var substituted: [JSONValue] = []
            for item in items { substituted.append(try substitute(item, variables, within: &budget)) }
            return .array(substituted)
        case .object(let members):
            var substituted: [String: JSONValue] = [:]
            for (key, member) in members { substituted[key] = try substitute(member, variables, within: &budget) }
            return .object(substituted)
        default:
            return value
        }
    }

    /// `substitute` without a bound.
    package static func substitute(_ value: JSONValue, _ variables: [String: JSONValue]) throws(Mismatch)
        -> JSONValue
    {
        var budget = Budget(limit: .max)
        return try substitute(value, variables, within: &budget)
    }

    /// What substitution may still make of a step, in bytes.
    struct Budget {
        let limit: Int
        private(set) var left: Int

        init(limit: Int) {
            self.limit = limit
            left = limit
        }

        /// Takes `bytes` off what is left, or stops the step (`variable`: the whole string that is one).
        mutating func spend(_ bytes: Int, for variable: String?) throws(Mismatch) {
            guard bytes <= left else {
                let bound = "larger than \(limit) bytes, the most substitution may make of a step (--max-body-bytes)"
                throw Mismatch(
                    variable.map { "${\($0)} is \(bytes) bytes: substituting it would make the step \(bound)" }
                        ?? "substituting its variables would make the step \(bound)")
            }
            left -= bytes
        }
    }

    /// A variable's value as text: a string as it is, anything else as JSON.
    static func text(of value: JSONValue) -> String {
        value.stringValue ?? Pattern.text(value, limit: .max)
    }

    /// What a string of a step is made of: text as written and variables.
    private enum Piece {
        case text(Substring)
        case variable(String, JSONValue)
    }

    /// The pieces of `text`: `${name}` a variable (an unknown one stops the step), `$${` the text `${`, a `${`
    /// without its `}` text.
    private static func pieces(of text: String, _ variables: [String: JSONValue]) throws(Mismatch) -> [Piece] {
        var pieces: [Piece] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = bytes.startIndex
        func at(_ offset: Int, _ byte: Character) -> Bool {
            guard let position = bytes.index(index, offsetBy: offset, limitedBy: bytes.endIndex),
                position < bytes.endIndex
            else { return false }
            return bytes[position] == byte.asciiValue
        }
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "$") else {
                index = bytes.index(after: index)
                continue
            }
            if at(1, "$"), at(2, "{") {
                // `$${`: the text before it is kept, its first `$` dropped; its `${` starts the next text.
                if start < index { pieces.append(.text(text[start..<index])) }
                start = bytes.index(after: index)
                index = bytes.index(index, offsetBy: 3)
            } else if at(1, "{") {
                let open = bytes.index(index, offsetBy: 2)
                guard let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) else { break }
                let name = String(text[open..<close])
                guard let found = variables[name] else { throw Mismatch("unknown variable ${\(name)}") }
                if start < index { pieces.append(.text(text[start..<index])) }
                pieces.append(.variable(name, found))
                index = bytes.index(after: close)
                start = index
            } else {
                index = bytes.index(after: index)
            }
        }
        if start < bytes.endIndex { pieces.append(.text(text[start...])) }
        return pieces
    }

    /// `value` written so that substitution gives it back: every `${` of its strings (members' values, not
    /// their names, which are not substituted) as `$${`. What an export writes of a client's data.
    public static func escaped(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.contains("${"):
            .string(text.replacingOccurrences(of: "${", with: "$${"))
        case .array(let items): .array(items.map(escaped))
        case .object(let members): .object(members.mapValues(escaped))
        default: value
        }
    }

    private func scoped(_ step: JSONValue) -> JSONValue {
        guard let namespace, namespace != "default", case .object(var members) = step else { return step }
        func move(_ text: String) -> String {
            guard text.contains("/v1/"), !Self.unscoped.contains(where: text.contains) else { return text }
            guard let range = text.range(of: "/v1/") else { return text }
            return text.replacingCharacters(in: range, with: "/v1/namespaces/\(namespace)/")
        }
        if let action = members["do"]?.stringValue { members["do"] = .string(move(action)) }
        if let patterns = members["expectHeaders"] {
            func walk(_ value: JSONValue) -> JSONValue {
                switch value {
                case .string(let text): .string(move(text))
                case .object(let inner): .object(inner.mapValues(walk))
                case .array(let items): .array(items.map(walk))
                default: value
                }
            }
            members["expectHeaders"] = walk(patterns)
        }
        return .object(members)
    }
}
