import LifecycleCore
import LifecycleJSON
import Testing

@testable import LifecycleScenarios

/// The scenario format's patterns and paths, as docs/SCENARIOS.md defines them (and the Python runner did).
@Suite struct PatternTests {
    static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    static func holds(_ pattern: String, _ actual: String) throws -> Bool {
        (try? Pattern.match(try json(pattern), try json(actual))) != nil
    }

    @Test func objectsListsAndScalars() throws {
        #expect(try Self.holds(#"{"a": 1}"#, #"{"a": 1, "b": 2}"#), "other members may be there")
        #expect(try !Self.holds(#"{"a": 1, "c": 3}"#, #"{"a": 1}"#))
        #expect(try Self.holds(#"[1, "x"]"#, #"[1, "x"]"#))
        #expect(try !Self.holds(#"[1]"#, #"[1, 2]"#), "a list matches one of the same length")
        #expect(try Self.holds("0.1", "0.1000000001") && !Self.holds("0.1", "0.2"))
        #expect(try !Self.holds("1", "true") && !Self.holds(#""1""#, "1"))
    }

    @Test func everyOperator() throws {
        #expect(try Self.holds(#"{"$any": true}"#, "null"))
        #expect(try Self.holds(#"{"$len": 2}"#, "[1, 2]") && !Self.holds(#"{"$len": 2}"#, "[1]"))
        #expect(try Self.holds(#"{"$gte": 2}"#, "2") && !Self.holds(#"{"$gte": 2}"#, "1.5"))
        #expect(try Self.holds(#"{"$lte": 2}"#, "2") && !Self.holds(#"{"$lte": 2}"#, "3"))
        #expect(try Self.holds(#"{"$contains": "/V1/apps"}"#, #""/v1/apps/a1""#))
        #expect(try Self.holds(#"{"$not": 1}"#, "2") && !Self.holds(#"{"$not": 1}"#, "1"))
        #expect(try Self.holds(#"{"$subsequence": ["a", "c"]}"#, #"["a", "b", "c"]"#))
        #expect(try !Self.holds(#"{"$subsequence": ["c", "a"]}"#, #"["a", "b", "c"]"#))
        #expect(try Self.holds(#"{"x": {"$absent": true}}"#, #"{"y": 1}"#))
        #expect(try Self.holds(#"{"x": {"$absent": true}}"#, #"{"x": null}"#))
        #expect(try !Self.holds(#"{"x": {"$absent": true}}"#, #"{"x": 1}"#))
        #expect(try !Self.holds(#"{"$unknown": 1}"#, "1"))
    }

    @Test func aListThatDiffersSaysWhereAndShowsBothSideBySide() throws {
        do {
            try Pattern.match(try Self.json(#"["a", "b", "c"]"#), try Self.json(#"["a", "c", "b"]"#))
            Issue.record("the lists differ")
        } catch let error as Mismatch {
            let lists = try #require(error.lists)
            #expect(lists.index == 1)
            let table = ScenarioReport.sideBySide(lists.expected, lists.actual, marking: lists.index)
            let rows = table.split(separator: "\n").map(String.init)
            #expect(rows.count == 4)
            #expect(rows[2].hasPrefix("     > b") && rows[2].hasSuffix("  c"), "\(table)")
            #expect(rows[1].hasPrefix("       a"))
        }
    }

    @Test func pathsAndPlucks() throws {
        let document = try Self.json(#"{"items": [{"id": "a", "n": 1}, {"id": "b", "m": 2}], "next": 3}"#)
        #expect(try Path.pluck(document, "items[].id") == Self.json(#"["a", "b"]"#))
        #expect(try Path.pluck(document, "items[].n|m") == Self.json("[1, 2]"))
        #expect(try Path.value(document, "items.1.id") == .string("b"))
        #expect(throws: Mismatch.self) { try Path.value(document, "items.2.id") }
        #expect(throws: Mismatch.self) { try Path.pluck(document, "next[].x") }
    }

    @Test func variablesAreSubstitutedAsTextOrWhole() throws {
        let variables: [String: JSONValue] = ["run": "r1", "seq": 7]
        #expect(try ScenarioRunner.substitute(.string("app-${run}-x"), variables) == .string("app-r1-x"))
        #expect(try ScenarioRunner.substitute(.string("${seq}"), variables) == .number(7), "a number stays one")
        #expect(try ScenarioRunner.substitute(.string("/v1/x?after=${seq}"), variables) == .string("/v1/x?after=7"))
        #expect(throws: Mismatch.self) { try ScenarioRunner.substitute(.string("${nope}"), variables) }
    }

    @Test func junitIsEscapedXMLWithAFailurePerFailedScenario() throws {
        let scenario = try Scenario(
            file: "01_a.json",
            bytes: Array(#"{"name": "a <b> & \"c\"", "source": "s", "steps": [{"do": "GET /livez"}]}"#.utf8))
        let xml = ScenarioReport.junit([
            ScenarioResult(scenario: scenario, seconds: 0.5, failure: nil),
            ScenarioResult(scenario: scenario, seconds: 0.25, failure: Mismatch("step 1: expected <x>\u{1}")),
        ])
        #expect(xml.contains(#"<testsuite name="lifecycled check" tests="2" failures="1" time="0.750">"#))
        #expect(xml.contains(#"name="a &lt;b&gt; &amp; &quot;c&quot;""#))
        #expect(xml.contains(#"<failure message="step 1: expected &lt;x&gt;?">"#))
        #expect(!xml.contains("\u{1}"))
    }
}

/// The format's version: absent or 1 is today's; a later one is refused rather than misread.
@Suite struct ScenarioFormatTests {
    @Test func aFileNamesItsFormatOrIsTodays() throws {
        let today = try Scenario(
            file: "a.json", bytes: Array(#"{"name": "n", "source": "s", "steps": [{"do": "GET /livez"}]}"#.utf8))
        #expect(today.steps.count == 1)
        _ = try Scenario(
            file: "b.json",
            bytes: Array(#"{"name": "n", "source": "s", "format": 1, "steps": [{"do": "GET /livez"}]}"#.utf8))
        #expect {
            try Scenario(file: "c.json", bytes: Array(#"{"name": "n", "format": 2, "steps": []}"#.utf8))
        } throws: { error in
            "\(error)".contains("format 2") && "\(error)".contains("reads format 1")
        }
    }
}
