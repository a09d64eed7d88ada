public import LifecycleCore
import LifecycleJSON

/// The scenario format's one description, `docs/scenario.schema.json` (the file is
/// `Sources/LifecycleScenarios/Resources/scenario.schema.json`, compiled into the binary), and the one check of a
/// file against it, which every reader runs before anything of the file runs: `lifecycled check`, an import
/// and `--seed`.
public enum ScenarioFormat {
    /// The schema's text, as compiled in.
    public static let schemaText: [UInt8] = PackageResources.scenario_schema_json

    static let validator: SchemaValidator = {
        // The schema is part of the build: a test parses it and holds it to what the validator applies.
        let schema = (try? JSONParser.parse(schemaText)) ?? .object([:])
        return SchemaValidator(root: schema)
    }()

    /// Where each member name first appears in the schema's text: the order messages list names in.
    static let memberOrder: [String: Int] = {
        let text = String(decoding: schemaText, as: UTF8.self)
        var order: [String: Int] = [:]
        var rest = Substring(text)
        var position = 0
        while let quote = rest.firstIndex(of: "\"") {
            let after = rest[rest.index(after: quote)...]
            guard let end = after.firstIndex(of: "\"") else { break }
            let name = String(after[..<end])
            if order[name] == nil { order[name] = position }
            position += 1
            rest = after[after.index(after: end)...]
        }
        return order
    }()

    /// Every way `document` does not fit the format, in document order; none when it fits. A file written in a
    /// later version of the format (`format`) is that one problem: this version's schema does not describe it.
    public static func problems(in document: JSONValue) -> [FormatProblem] {
        if let format = document["format"], !Scenario.formats.contains(where: { format == .number($0) }) {
            return [
                FormatProblem(
                    path: "format",
                    message:
                        "the file is written in format \(Pattern.text(format)) of scenarios; this runner reads format 1 "
                        + "(docs/SCENARIOS.md)")
            ]
        }
        return validator.problems(of: document)
    }

    /// A file's bytes as a scenario: JSON without a key named twice in one object, fitting the format.
    /// Throws every problem found; nothing of the file has run.
    public static func scenario(file: String, bytes: [UInt8]) throws(ScenarioFileError) -> Scenario {
        let document: JSONValue
        do {
            document = try JSONParser.parse(rejectingDuplicateKeys: bytes)
        } catch {
            throw ScenarioFileError(file: file, problems: [FormatProblem(path: "", message: "not JSON: \(error)")])
        }
        let found = problems(in: document)
        guard found.isEmpty else { throw ScenarioFileError(file: file, problems: found) }
        do {
            return try Scenario(file: file, document: document)
        } catch {
            throw ScenarioFileError(file: file, problems: [FormatProblem(path: "", message: error.description)])
        }
    }
}

/// A file that is not a scenario of the format: which, and every problem found.
public struct ScenarioFileError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var problems: [FormatProblem]

    public init(file: String, problems: [FormatProblem]) {
        self.file = file
        self.problems = problems
    }

    /// `FILE: PATH: message`, one line a problem.
    public var description: String {
        problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}
