import Foundation
import LifecycleCore
import LifecycleJSON
import Testing

@testable import LifecycleScenarios

/// The one check of scenario files against the format (docs/scenario.schema.json, compiled in), which
/// `lifecycled check`, an import and `--seed` run before anything of a file runs.
@Suite struct ScenarioFormatCheckTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func problems(_ text: String) throws -> [FormatProblem] {
        ScenarioFormat.problems(in: try JSONParser.parse(text))
    }

    func scenario(_ steps: String) -> String { #"{"name": "n", "source": "s", "steps": [\#(steps)]}"# }

    @Test func theCompiledSchemaIsTheDocsFileAndUsesOnlyKeywordsTheValidatorApplies() throws {
        let docs = try Data(contentsOf: Self.repository.appendingPathComponent("docs/scenario.schema.json"))
        #expect(Array(docs) == ScenarioFormat.schemaText)
        let schema = try JSONParser.parse(ScenarioFormat.schemaText)
        #expect(SchemaValidator(root: schema).unsupported().isEmpty)
        #expect(ScenarioFormat.validator.root == schema)
        // Every pattern of the schema compiles.
        func patterns(_ value: JSONValue) -> [String] {
            switch value {
            case .object(let members):
                return (members["pattern"]?.stringValue.map { [$0] } ?? []) + members.values.flatMap(patterns)
            case .array(let items): return items.flatMap(patterns)
            default: return []
            }
        }
        for pattern in patterns(schema) { #expect((try? NSRegularExpression(pattern: pattern)) != nil, "\(pattern)") }
    }

    @Test func aMisspeltMemberIsNamedWithTheClosestValidOne() throws {
        let found = try problems(scenario(#"{"do": "GET /v1/apps/a", "expcet": {"state": "suspended"}}"#))
        #expect(found.count == 1)
        #expect(found.first?.path == "steps[0].expcet")
        #expect(found.first?.didYouMean == "expect")
        #expect(found.first?.message.contains("did you mean expect?") == true)
        #expect(found.first?.allowed.first == "do")
    }

    @Test(arguments: [
        (#"{"do": "GET /x", "note": "why"}"#, "steps[0].note", "not a member of a request step"),
        (#"{"do": "POST /x", "status": "201"}"#, "steps[0].status", "a whole number from 100 to 599"),
        (#"{"do": "GET /x", "expect": {}}"#, "steps[0].expect", "checks nothing"),
        (#"{"do": "GET /x", "expectHeaders": {}}"#, "steps[0].expectHeaders", "checks nothing"),
        (#"{"do": "FETCH /x"}"#, "steps[0].do", "METHOD /path"),
        (#"{"do": "GET /x", "expect": {"a": {"$lenn": 1}}}"#, "steps[0].expect.a.$lenn", "did you mean $len?"),
        (#"{"do": "GET /x", "pluck": "items[].a"}"#, "steps[0].pluck", "only meaningful with expect"),
        (#"{"do": "GET /x", "body": 1, "rawBody": "x"}"#, "steps[0]", "rawBody replaces body"),
        (#"{"do": "GET /x", "save": {"run": "next"}}"#, "steps[0].save.run", "cannot be saved over"),
        (#"{"sleep": 1, "do": "GET /x"}"#, "steps[0].do", "not a member of a pause"),
        (#"{"sleep": -1}"#, "steps[0].sleep", "at least 0"),
        (#"3"#, "steps[0]", "must be a step"),
    ])
    func eachMistakeIsNamedByItsPath(step: String, path: String, message: String) throws {
        let found = try problems(scenario(step))
        #expect(found.map(\.path) == [path], "\(found)")
        #expect(found.first?.message.contains(message) == true, "\(found)")
    }

    @Test func theTopLevelIsHeldToo() throws {
        let found = try problems(#"{"name": "n", "stpes": [{"do": "GET /x"}]}"#)
        #expect(found.map(\.path) == ["source", "steps", "stpes"], "\(found)")
        #expect(found.last?.didYouMean == "steps")
        #expect(
            try problems(#"{"name": "n", "source": "s", "format": 2, "steps": []}"#).first?.message.contains("format 2")
                == true)
        #expect(try problems("[]").first?.message == "must be a scenario, not a list")
    }

    @Test func aFileWithAKeyTwiceOrNotJSONIsRefusedWithEveryProblem() throws {
        #expect {
            try ScenarioFormat.scenario(
                file: "01_a.json", bytes: Array(scenario(#"{"do": "GET /x", "status": 200, "status": 201}"#).utf8))
        } throws: { error in
            "\(error)".contains("01_a.json") && "\(error)".contains("\"status\" twice")
        }
        #expect {
            try ScenarioFormat.scenario(
                file: "02_b.json", bytes: Array(scenario(#"{"do": "GET /x", "a": 1}, {"do": "GET /y", "b": 2}"#).utf8))
        } throws: { error in
            (error as? ScenarioFileError)?.problems.map(\.path) == ["steps[0].a", "steps[1].b"]
        }
    }

    @Test func aValidFileIsAScenario() throws {
        let file = scenario(
            #"{"do": "POST /v1/devices", "status": "${code}", "body": {"id": "d-${run}"}, "headers": {"Idempotency-Key": "k"}, "save": {"code": "status"}, "saveHeaders": {"etag": "ETag"}}, {"sleep": 0.5}, {"do": "GET /x", "pluck": "items[].session|session", "expect": {"$subsequence": [{"a": {"$absent": true}}, {"$not": {"$len": 0}}]}, "expectHeaders": {"Location": {"$contains": "/v1/"}}}"#
        )
        #expect(try problems(file).isEmpty)
        #expect(try ScenarioFormat.scenario(file: "01_a.json", bytes: Array(file.utf8)).steps.count == 3)
    }

    /// The repository's scenarios all fit, and those of `LIFECYCLED_EXTRA_CONFORMANCE` when it names a conformance
    /// directory (scripts/check-scenarios holds every suite scripts/test runs to the format as well).
    @Test func everyScenarioOfTheRepositoryFits() throws {
        var folders = [
            "Tests/Conformance/scenarios", "Tests/Conformance/scenes", "examples/scenarios",
            "Tests/Fixtures/failing-scenario",
        ]
        .map { Self.repository.appendingPathComponent($0).path }
        if let extra = ProcessInfo.processInfo.environment["LIFECYCLED_EXTRA_CONFORMANCE"] {
            for folder in ["scenarios", "scenes"] where FileManager.default.fileExists(atPath: "\(extra)/\(folder)") {
                folders.append("\(extra)/\(folder)")
            }
        }
        var count = 0
        for file in folders.flatMap(Scenario.files(at:)) {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(throws: Never.self, "\(file)") { _ = try ScenarioFormat.scenario(file: file, bytes: bytes) }
            count += 1
        }
        #expect(count > 40)
    }
}
