import LifecycleCore
import LifecycleJSON
import Testing

@testable import LifecycleScenarios

/// The runner's last parsed answer: a body equal to the last gives its document, any other is parsed anew.
@Suite struct ParsedAnswerTests {
    @Test func anEqualBodyGivesTheLastDocumentAndAnyOtherIsParsed() throws {
        let parsed = ParsedAnswer()
        let first = Array(#"{"items": [1, 2]}"#.utf8)
        #expect(try parsed.parse(first) == JSONParser.parse(first))
        // The same array, and an equal one in another buffer.
        #expect(try parsed.parse(first) == JSONParser.parse(first))
        #expect(try parsed.parse(Array(#"{"items": [1, 2]}"#.utf8)) == JSONParser.parse(first))
        let second = Array(#"{"items": []}"#.utf8)
        #expect(try parsed.parse(second) == JSONParser.parse(second))
        #expect(try parsed.parse(Array("null".utf8)) == .null)
        #expect(try parsed.parse(first) == JSONParser.parse(first))
        // A body that is not JSON is refused and leaves the last one kept.
        #expect(throws: JSONParseError.self) { try parsed.parse(Array("{".utf8)) }
        #expect(try parsed.parse(first) == JSONParser.parse(first))
    }
}
