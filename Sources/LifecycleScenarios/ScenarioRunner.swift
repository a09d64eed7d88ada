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
            throw Mismatch("\(file) does not fit the scenario format: \(problems.map(\.description).joined(separator: "; "))")
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

    public init(transport: any ScenarioTransport, namespace: String? = nil, token: String? = nil) {
        self.transport = transport
        self.namespace = namespace
        self.token = token
    }

    /// The paths a namespace leaves where they are: the namespaces themselves and the spec.
    static let unscoped = ["/v1/namespaces", "/v1/openapi.yaml"]

    /// Runs every step; throws the first `Mismatch`, naming the step.
    public func run(_ scenario: Scenario) throws {
        var variables: [String: JSONValue] = ["run": .string(String(UUID().uuidString.lowercased().prefix(10)))]
        for (index, written) in scenario.steps.enumerated() {
            let step = scoped(try Self.substitute(written, variables))
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
                try perform(step, method: String(action[..<space]), path: String(action[action.index(after: space)...]), &variables)
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
                document = try JSONParser.parse(answer.body)
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
            let actual = try step["pluck"]?.stringValue.map { spec throws(Mismatch) in try Path.pluck(document, spec) } ?? document
            try Pattern.match(pattern, actual)
        }
        if case .object(let saves)? = step["save"] {
            for (name, spec) in saves {
                variables[name] = try Path.pluck(document, spec.stringValue ?? "")
            }
        }
        if case .object(let saves)? = step["saveHeaders"] {
            for (name, header) in saves {
                guard let value = received[(header.stringValue ?? "").lowercased()] else {
                    throw Mismatch("missing header \(header.stringValue ?? "")")
                }
                variables[name] = .string(value)
            }
        }
    }

    /// `${name}` replaced by the variable's value: a whole string that is one variable takes its value as it
    /// is (a number stays a number), else its text.
    static func substitute(_ value: JSONValue, _ variables: [String: JSONValue]) throws(Mismatch) -> JSONValue {
        switch value {
        case .string(let text):
            guard text.contains("${") else { return value }
            if text.hasPrefix("${"), text.hasSuffix("}"), let whole = variables[String(text.dropFirst(2).dropLast())],
                whole.stringValue == nil
            {
                return whole
            }
            var result = ""
            var rest = Substring(text)
            while let start = rest.range(of: "${") {
                result += rest[..<start.lowerBound]
                guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                    result += rest[start.lowerBound...]
                    rest = ""
                    break
                }
                let name = String(rest[start.upperBound..<end])
                guard let found = variables[name] else { throw Mismatch("unknown variable ${\(name)}") }
                result += found.stringValue ?? Pattern.text(found, limit: .max)
                rest = rest[rest.index(after: end)...]
            }
            return .string(result + rest)
        case .array(let items):
            var substituted: [JSONValue] = []
            for item in items { substituted.append(try substitute(item, variables)) }
            return .array(substituted)
        case .object(let members):
            var substituted: [String: JSONValue] = [:]
            for (key, member) in members { substituted[key] = try substitute(member, variables) }
            return .object(substituted)
        default:
            return value
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
