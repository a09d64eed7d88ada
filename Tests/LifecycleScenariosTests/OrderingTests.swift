import LifecycleCore
import LifecycleJSON
import Testing

@testable import LifecycleScenarios

/// `$none` and `$followedBy` (docs/SCENARIOS.md, "Patterns"): what never appears, what must follow what.
@Suite struct OrderingTests {
    static func failure(_ pattern: String, _ actual: String) throws -> String? {
        let (expected, value) = (try JSONParser.parse(pattern), try JSONParser.parse(actual))
        do {
            try Pattern.match(expected, value)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func noneNamesTheFirstItemThatMatches() throws {
        #expect(try Self.failure(#"{"$none": {"k": "x"}}"#, #"[{"k": "a"}, {"k": "b"}]"#) == nil)
        #expect(try Self.failure(#"{"$none": {"k": "x"}}"#, "[]") == nil)
        let found = try #require(try Self.failure(#"{"$none": {"k": "x"}}"#, #"[{"k": "a"}, {"k": "x", "n": 1}]"#))
        #expect(found.hasPrefix("$[1]: expected no item matching {\"k\":\"x\"}, got {\"k\":\"x\",\"n\":1}"), "\(found)")
        #expect(try Self.failure(#"{"$none": 1}"#, #"{"a": 1}"#)?.contains("expected a list") == true)
    }

    @Test func followedByHoldsWhenEachIsAnswered() throws {
        let rule = #"{"$followedBy": {"each": "a", "by": "b"}}"#
        #expect(try Self.failure(rule, #"["a", "x", "b", "a", "b"]"#) == nil)
        #expect(try Self.failure(rule, #"["x", "b"]"#) == nil, "no a: nothing to follow")
        #expect(try Self.failure(rule, #"["b", "a"]"#) == nil, "an a still waiting at the end holds")
    }

    @Test func followedByBreaksOnBeforeAndOnTime() throws {
        let before = #"{"$followedBy": {"each": "a", "by": "b", "before": "a"}}"#
        let broken = try #require(try Self.failure(before, #"["a", "x", "a", "b"]"#))
        #expect(
            broken.hasPrefix("$[0]: \"a\" is not followed by \"b\" before \"a\": $[2] \"a\" comes first"), "\(broken)")
        let within = #"{"$followedBy": {"each": {"k": "a"}, "by": {"k": "b"}, "within": 10}}"#
        #expect(
            try Self.failure(within, #"[{"k": "a", "time": 0}, {"k": "x", "time": 5}, {"k": "b", "time": 10}]"#)
                == nil)
        let late = try #require(
            try Self.failure(within, #"[{"k": "a", "time": 0}, {"k": "x", "time": 10.5}, {"k": "b", "time": 11}]"#))
        #expect(late.contains("within 10 s: $[1]"), "\(late)")
        #expect(try Self.failure(within, #"[{"k": "a"}]"#)?.contains("has no time") == true)
    }

    @Test func followedByComparesTheMembersSameNames() throws {
        // A chain: each state entry's from is the previous one's to.
        let chain =
            #"{"$followedBy": {"each": {"kind": "state"}, "by": {"kind": "state"}, "same": {"to": "from"}, "before": {"kind": "state"}}}"#
        let good =
            #"[{"kind": "state", "from": "n", "to": "a"}, {"kind": "x"}, {"kind": "state", "from": "a", "to": "b"}]"#
        #expect(try Self.failure(chain, good) == nil)
        let bad = #"[{"kind": "state", "from": "n", "to": "a"}, {"kind": "state", "from": "b", "to": "c"}]"#
        #expect(try Self.failure(chain, bad)?.contains("(the same to) before") == true)
        // A task's end must be the same task's.
        let tasks =
            #"{"$followedBy": {"each": {"e": "began"}, "by": {"e": "ended"}, "same": {"task": "task"}, "before": {"e": "suspended"}}}"#
        #expect(
            try Self.failure(tasks, #"[{"e": "began", "task": 1}, {"e": "ended", "task": 1}, {"e": "suspended"}]"#)
                == nil)
        #expect(
            try Self.failure(tasks, #"[{"e": "began", "task": 1}, {"e": "ended", "task": 2}, {"e": "suspended"}]"#)
                != nil)
        // A task dies with its app: a termination first lets it off.
        let died =
            #"{"$followedBy": {"each": {"e": "began"}, "by": {"e": "ended"}, "before": {"e": "suspended"}, "unless": {"e": "killed"}}}"#
        #expect(try Self.failure(died, #"[{"e": "began"}, {"e": "killed"}, {"e": "suspended"}]"#) == nil)
        #expect(try Self.failure(died, #"[{"e": "began"}, {"e": "suspended"}, {"e": "killed"}]"#) != nil)
    }

    @Test func theFormatTakesBothAndRefusesAMisspeltRule() throws {
        func problems(_ expect: String) throws -> [String] {
            let text = #"{"name": "n", "source": "s", "steps": [{"do": "GET /v1/apps", "expect": \#(expect)}]}"#
            return ScenarioFormat.problems(in: try JSONParser.parse(text)).map(\.description)
        }
        #expect(try problems(#"{"$none": {"kind": "termination"}}"#).isEmpty)
        #expect(
            try problems(
                #"{"$followedBy": {"each": 1, "by": 2, "within": 3, "before": 4, "unless": 5, "same": {"a": "b"}}}"#
            ).isEmpty)
        let misspelt = try problems(#"{"$followedBy": {"each": 1, "bye": 2}}"#)
        #expect(
            misspelt.contains { $0.contains("bye is not a member") && $0.contains("did you mean by?") }, "\(misspelt)")
        #expect(
            try problems(#"{"$followedBy": {"each": 1}}"#).contains { $0.contains("by: missing") }, "by is required")
        #expect(try problems(#"{"$followedBy": {"each": 1, "by": 2, "within": -1}}"#).count == 1)
    }
}
