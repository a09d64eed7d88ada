import LifecycleCore
import LifecycleJSON
import Testing

@testable import LifecycleScenarios

/// `${name}` and its escape `$${`, and the bound on what substitution may build (docs/SCENARIOS.md).
@Suite struct SubstitutionTests {
    /// Answers `GET /big` with `{"s": "xxx…"}` of `size` characters, anything else with `{}`; notes what it was sent.
    /// The runner calls it from one thread at a time.
    final class Recorder: ScenarioTransport, @unchecked Sendable {
        let size: Int
        var sent: [(path: String, bytes: Int)] = []

        init(size: Int) { self.size = size }

        func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
            -> (status: Int, headers: [(String, String)], body: [UInt8])
        {
            sent.append((path, body?.count ?? 0))
            let answer = path == "/big" ? #"{"s": "\#(String(repeating: "x", count: size))"}"# : "{}"
            return (200, [("Content-Type", "application/json")], Array(answer.utf8))
        }
    }

    static func scenario(_ steps: String) throws -> Scenario {
        try Scenario(file: "s", bytes: Array(#"{"name": "s", "source": "test", "steps": [\#(steps)]}"#.utf8))
    }

    @Test func dollarDollarBraceStandsForALiteralDollarBrace() throws {
        let variables: [String: JSONValue] = ["run": "r1", "seq": 7]
        #expect(try ScenarioRunner.substitute(.string("$${run}"), variables) == .string("${run}"))
        #expect(try ScenarioRunner.substitute(.string("a $${user} b ${run}"), variables) == .string("a ${user} b r1"))
        #expect(try ScenarioRunner.substitute(.string("$$${run}"), variables) == .string("$${run}"))
        #expect(
            try ScenarioRunner.substitute(.string("$${seq}"), variables) == .string("${seq}"), "not a whole variable")
        #expect(
            try ScenarioRunner.substitute(.string("$ $$ ${"), variables) == .string("$ $$ ${"), "other dollars stay")
        // Escaping any text and substituting it gives the text back.
        for text in ["price ${run}", "${user}", "$${x}", "$", "${", "$$", "$$$${", "${${}}", "}${run", "x$"] {
            let escaped = ScenarioRunner.escaped(.string(text))
            #expect(try ScenarioRunner.substitute(escaped, [:]) == .string(text), "\(text) written as \(escaped)")
        }
        #expect(
            ScenarioRunner.escaped(["${k}": ["a${b}", 1, nil]]) == ["${k}": ["a$${b}", 1, nil]],
            "members' values, not their names, which are not substituted")
    }

    /// A value saved once and used many times: the step is refused before it is built, and never sent.
    @Test func aStepThatSubstitutionWouldMakeLargerThanTheLimitStopsTheRun() throws {
        let transport = Recorder(size: 10_000)
        let uses = String(repeating: "${b}", count: 1_000)
        for place in [
            #"{"do": "POST /x", "body": {"payload": ["\#(uses)"]}}"#,
            #"{"do": "GET /x?q=\#(uses)"}"#,
            #"{"do": "GET /x", "headers": {"X-A": "\#(uses)"}}"#,
            #"{"do": "POST /x", "body": [\#(Array(repeating: #""${b}""#, count: 1_000).joined(separator: ","))]}"#,
        ] {
            let scenario = try Self.scenario(#"{"do": "GET /big", "save": {"b": "s"}}, \#(place)"#)
            let runner = ScenarioRunner(transport: transport, limit: 64 << 10)
            #expect {
                try runner.run(scenario)
            } throws: { error in
                let mismatch = error as? Mismatch
                return mismatch?.step == 2 && mismatch?.description.contains("65536") == true
            }
            #expect(transport.sent.last?.path == "/big", "the step was not sent")
        }
        // Within the limit it runs.
        let runner = ScenarioRunner(transport: transport, limit: 64 << 10)
        try runner.run(
            try Self.scenario(#"{"do": "GET /big", "save": {"b": "s"}}, {"do": "POST /x", "body": ["${b}${b}${b}"]}"#))
        #expect(transport.sent.last?.bytes == 30_004)
    }

    @Test func aSavedValueLargerThanTheLimitIsRefused() throws {
        let runner = ScenarioRunner(transport: Recorder(size: 70_000), limit: 64 << 10)
        #expect {
            try runner.run(try Self.scenario(#"{"do": "GET /big", "save": {"b": "s"}}"#))
        } throws: { error in
            let mismatch = error as? Mismatch
            return mismatch?.step == 1 && mismatch?.description.contains("${b}") == true
                && mismatch?.description.contains("65536") == true
        }
        try ScenarioRunner(transport: Recorder(size: 60_000), limit: 64 << 10)
            .run(try Self.scenario(#"{"do": "GET /big", "save": {"b": "s"}}"#))
    }

    @Test func anUnknownVariableNamesItsStep() throws {
        let runner = ScenarioRunner(transport: Recorder(size: 1))
        #expect {
            try runner.run(try Self.scenario(#"{"do": "GET /a"}, {"do": "GET /b/${nope}"}"#))
        } throws: { error in
            (error as? Mismatch)?.step == 2 && "\(error)".contains("${nope}")
        }
    }
}
