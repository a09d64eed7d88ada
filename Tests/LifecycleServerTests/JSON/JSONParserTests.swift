import LifecycleCore
@testable import LifecycleJSON
import LifecycleTesting
@testable import LifecycleWire
import TestSupport
import Testing

@testable import LifecycleServer

@Suite struct JSONParserTests {
    @Test func parsesAnEventBody() throws {
        let value = try JSONParser.parse(Array(#"{"type":"launch","background":false}"#.utf8))
        #expect(value == .object(["type": "launch", "background": false]))
    }

    @Test func allowsWhitespaceAroundEverything() throws {
        let value = try JSONParser.parse(" \t\r\n{ \"a\" : [ 1 , 2 ] ,\n\"b\"\t:\r{ } , \"c\" : [ ] } \n")
        #expect(value == .object(["a": [1, 2], "b": .object([:]), "c": .array([])]))
    }

    @Test(
        arguments: [
            ("null", .null), ("true", true), ("false", false), ("\"\"", ""), ("7", 7), ("[]", []), ("{}", [:]),
        ] as [(String, JSONValue)])
    func parsesAnyValueAtTheTopLevel(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test(arguments: [
        ("0", 0.0), ("12", 12), ("-12", -12), ("12.5", 12.5), ("-3.25e2", -325), ("1E3", 1000), ("1e+3", 1000),
        ("1e-3", 0.001), ("0.1", 0.1), ("0.000001", 0.000001), ("1.5e+10", 1.5e10), ("100e-2", 1),
        ("123456789012345678901234567890", 1.2345678901234568e29), ("9007199254740993", 9007199254740992),
        ("2.2250738585072014e-308", 2.2250738585072014e-308), ("5e-324", .leastNonzeroMagnitude), ("1e-400", 0),
        ("1.7976931348623157e308", 1.7976931348623157e308), ("0.30000000000000004", 0.30000000000000004),
        ("-0.0000000000000000000000000001", -1e-28), ("3.141592653589793238462643383279", 3.141592653589793),
        ("1712345678.123", 1712345678.123), ("0e999999999999999999", 0),
    ])
    func parsesNumbers(text: String, expected: Double) throws {
        let value = try JSONParser.parse(text)
        #expect(value.numberValue?.bitPattern == expected.bitPattern, "\(text) → \(value)")
    }

    @Test func keepsTheSignOfNegativeZero() throws {
        let value = try #require(try JSONParser.parse("-0").numberValue)
        #expect(value == 0 && value.sign == .minus)
    }

    @Test func numbersMatchTheStandardLibrarysCorrectlyRoundedConversion() throws {
        var random = SplitMix64(seed: 0xD1CE)
        for _ in 0..<5000 {
            var text = random.next() % 4 == 0 ? "-" : ""
            let integerDigits = Int(random.next() % 22) + 1
            text += random.next() % 5 == 0 ? "0" : String(Int(random.next() % 9) + 1)
            if text.last != "0" { for _ in 1..<integerDigits { text += String(random.next() % 10) } }
            if random.next() % 2 == 0 {
                text += "."
                for _ in 0..<(Int(random.next() % 20) + 1) { text += String(random.next() % 10) }
            }
            if random.next() % 2 == 0 {
                text += ["e", "E", "e+", "e-", "E-"][Int(random.next() % 5)]
                text += String(random.next() % (random.next() % 3 == 0 ? 400 : 30))
            }
            let expected = try #require(Double(text))
            if expected.isFinite {
                let parsed = try JSONParser.parse(text).numberValue
                #expect(parsed?.bitPattern == expected.bitPattern, "\(text)")
            } else {
                #expect(throws: JSONParseError(.numberOutOfRange, at: 0)) { try JSONParser.parse(text) }
            }
        }
    }

    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
        (#""caf\u00e9 \u00E9""#, "café é"),
        (#""\u0000""#, "\u{0}"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""a\ud834\udd1eb""#, "a𝄞b"),
        (#""\u20AC\u0041""#, "€A"),
        ("\"héllo 😀 \u{7F}\"", "héllo 😀 \u{7F}"),
        ("\"mixed é\\n😀\"", "mixed é\n😀"),
    ])
    func parsesStrings(text: String, expected: String) throws {
        #expect(try JSONParser.parse(text) == .string(expected))
    }

    @Test func parsesNestedStructures() throws {
        let text = #"{"apps":[{"id":"a","pids":[1,2,3],"info":{"k":null}},{"id":"b","pids":[],"info":{}}],"n":2}"#
        let expected: JSONValue = [
            "apps": [["id": "a", "pids": [1, 2, 3], "info": ["k": nil]], ["id": "b", "pids": [], "info": [:]]],
            "n": 2,
        ]
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test func duplicateKeysKeepTheLastValue() throws {
        #expect(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#) == ["a": 3, "b": 2])
    }

    @Test func escapedAndUnescapedKeysAreTheSameKey() throws {
        #expect(try JSONParser.parse(#"{"a":1,"\u0061":2}"#) == ["a": 2])
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let arrays = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONParser.parse(arrays) != .null)
        let objects = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(try JSONParser.parse(objects) != .null)
        #expect(try JSONParser.parse("[[[1]]]", maxDepth: 3) == [[[1]]])
    }

    @Test func parsesSlicesAndRawBuffers() throws {
        let bytes = Array("xx[1,\"two\"]yy".utf8)
        #expect(try JSONParser.parse(bytes[2..<11]) == [1, "two"])
        let value = try bytes[2..<11].withUnsafeBytes { raw throws(JSONParseError) in try JSONParser.parse(raw) }
        #expect(value == [1, "two"])
        #expect(throws: JSONParseError(.unexpectedEnd, at: 0)) { try JSONParser.parse([UInt8]()) }
    }
}
