import LifecycleCore
@testable import LifecycleJSON
@testable import LifecycleWire
import Testing

@testable import LifecycleServer

@Suite struct JSONParserRejectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let reason: JSONParseError.Reason
        let offset: Int

        init(_ text: String, _ reason: JSONParseError.Reason, _ offset: Int) {
            self.init(Array(text.utf8), reason, offset)
        }

        init(_ bytes: [UInt8], _ reason: JSONParseError.Reason, _ offset: Int) {
            self.bytes = bytes
            self.reason = reason
            self.offset = offset
        }

        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
    }

    static func char(_ c: Unicode.Scalar) -> JSONParseError.Reason { .unexpectedCharacter(UInt8(ascii: c)) }

    static let structural: [Case] = [
        Case("", .unexpectedEnd, 0),
        Case("  \n", .unexpectedEnd, 3),
        Case("[1,]", char("]"), 3),
        Case(#"{"a":1,}"#, char("}"), 7),
        Case("[,1]", char(","), 1),
        Case("[1 2]", char("2"), 3),
        Case(#"{"a" 1}"#, char("1"), 5),
        Case("{a:1}", char("a"), 1),
        Case("{'a':1}", char("'"), 1),
        Case(#"{"a":1 "b":2}"#, char("\""), 7),
        Case("[1,2", .unexpectedEnd, 4),
        Case(#"{"a":1"#, .unexpectedEnd, 6),
        Case(#"{"a":"#, .unexpectedEnd, 5),
        Case("[1}", char("}"), 2),
        Case("// c\n1", char("/"), 0),
        Case("/* c */ 1", char("/"), 0),
        Case("[1]/*x*/", .trailingCharacters(UInt8(ascii: "/")), 3),
        Case("true false", .trailingCharacters(UInt8(ascii: "f")), 5),
        Case("{}}", .trailingCharacters(UInt8(ascii: "}")), 2),
        Case("1 2", .trailingCharacters(UInt8(ascii: "2")), 2),
        Case("truex", .trailingCharacters(UInt8(ascii: "x")), 4),
        Case("tru", .unexpectedEnd, 3),
        Case("trUe", char("U"), 2),
        Case("nul", .unexpectedEnd, 3),
        Case("False", char("F"), 0),
        Case("None", char("N"), 0),
        Case("undefined", char("u"), 0),
        Case("\u{FEFF}1", .unexpectedCharacter(0xEF), 0),
        Case("[1,\u{0B}2]", .unexpectedCharacter(0x0B), 3),
        Case("[1,\u{A0}2]", .unexpectedCharacter(0xC2), 3),
    ]

    static let numbers: [Case] = [
        Case("NaN", char("N"), 0),
        Case("Infinity", char("I"), 0),
        Case("-Infinity", .invalidNumber, 1),
        Case("[NaN]", char("N"), 1),
        Case("01", .leadingZero, 0),
        Case("00", .leadingZero, 0),
        Case("-01", .leadingZero, 1),
        Case("[007]", .leadingZero, 1),
        Case("1.", .unexpectedEnd, 2),
        Case("1.e5", .invalidNumber, 2),
        Case("[1.]", .invalidNumber, 3),
        Case("1e", .unexpectedEnd, 2),
        Case("1e+", .unexpectedEnd, 3),
        Case("1ex", .invalidNumber, 2),
        Case("1e+-1", .invalidNumber, 3),
        Case("-", .unexpectedEnd, 1),
        Case("-a", .invalidNumber, 1),
        Case("--1", .invalidNumber, 1),
        Case(".5", char("."), 0),
        Case("+1", char("+"), 0),
        Case("0x10", .trailingCharacters(UInt8(ascii: "x")), 1),
        Case("1.5.2", .trailingCharacters(UInt8(ascii: ".")), 3),
        Case("1e999", .numberOutOfRange, 0),
        Case("[-1e400]", .numberOutOfRange, 1),
        Case("1" + String(repeating: "0", count: 400), .numberOutOfRange, 0),
        Case("1.8e308", .numberOutOfRange, 0),
    ]

    static let strings: [Case] = [
        Case("\"abc", .unexpectedEnd, 4),
        Case("\"ab\\", .unexpectedEnd, 4),
        Case("\"a\nb\"", .controlCharacterInString(0x0A), 2),
        Case("\"\t\"", .controlCharacterInString(0x09), 1),
        Case("\"\u{0}\"", .controlCharacterInString(0x00), 1),
        Case("\"\u{1F}\"", .controlCharacterInString(0x1F), 1),
        Case("\"\\n\u{1}\"", .controlCharacterInString(0x01), 3),
        Case(#""\x""#, .invalidEscape(UInt8(ascii: "x")), 1),
        Case(#""ok\'""#, .invalidEscape(UInt8(ascii: "'")), 3),
        Case(#""\U0041""#, .invalidEscape(UInt8(ascii: "U")), 1),
        Case(#""\u12G4""#, .invalidUnicodeEscape, 5),
        Case(#""\u12""#, .invalidUnicodeEscape, 5),
        Case(#""\u"#, .unexpectedEnd, 3),
        Case(#""\uD800""#, .unpairedSurrogate, 1),
        Case(#""\uDC00""#, .unpairedSurrogate, 1),
        Case(#""\uD800\u0041""#, .unpairedSurrogate, 1),
        Case(#""\uD800\n""#, .unpairedSurrogate, 1),
        Case(#""\uDBFF\uDBFF""#, .unpairedSurrogate, 1),
        Case(#""x\uDE00\uD83D""#, .unpairedSurrogate, 2),
        Case(#"{"a\q":1}"#, .invalidEscape(UInt8(ascii: "q")), 3),
        Case("{\"\n\":1}", .controlCharacterInString(0x0A), 2),
    ]

    static let utf8: [Case] = [
        Case([0x22, 0xFF, 0x22], .invalidUTF8, 1),
        Case([0x22, 0x61, 0x80, 0x22], .invalidUTF8, 2),
        Case([0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, 1),  // overlong "/"
        Case([0x22, 0xC1, 0xBF, 0x22], .invalidUTF8, 1),  // overlong
        Case([0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, 1),  // overlong 3-byte
        Case([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8, 1),  // overlong 4-byte
        Case([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, 1),  // encoded surrogate U+D800
        Case([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, 1),  // above U+10FFFF
        Case([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, 1),
        Case([0x22, 0xC3, 0x22], .invalidUTF8, 1),  // truncated by the closing quote
        Case([0x22, 0xE2, 0x82, 0x22], .invalidUTF8, 1),
        Case([0x22, 0xE2, 0x82], .invalidUTF8, 1),  // truncated by the end of input
        Case([0x22, 0x5C, 0x6E, 0xFF, 0x22], .invalidUTF8, 3),  // after an escape
        Case([0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], .invalidUTF8, 2),  // in a key
        Case([0xFF], .unexpectedCharacter(0xFF), 0),  // outside strings
    ]

    @Test(arguments: structural + numbers + strings + utf8)
    func rejects(_ sample: Case) {
        #expect(throws: JSONParseError(sample.reason, at: sample.offset)) { try JSONParser.parse(sample.bytes) }
    }

    @Test func rejectsNestingBeyondTheLimit() {
        let arrays = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError(.tooDeep(limit: 64), at: 64)) { try JSONParser.parse(arrays) }
        let objects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(throws: JSONParseError(.tooDeep(limit: 64), at: 64 * 5)) { try JSONParser.parse(objects) }
        #expect(throws: JSONParseError(.tooDeep(limit: 2), at: 2)) { try JSONParser.parse("[[[]]]", maxDepth: 2) }
    }

    @Test func survivesHostileNesting() {
        let bomb = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONParseError(.tooDeep(limit: 64), at: 64)) { try JSONParser.parse(bomb) }
        let objectBomb = Array(String(repeating: #"{"":"#, count: 100_000).utf8)
        #expect(throws: JSONParseError(.tooDeep(limit: 64), at: 64 * 4)) { try JSONParser.parse(objectBomb) }
    }

    @Test(arguments: [
        (#"{"type":"launch",}"#, "unexpected character '}' at byte 17"),
        (#"{"a":[1,2,3],"b":}"#, "unexpected character '}' at byte 17"),
        ("", "unexpected end of input at byte 0"),
        ("[1] x", "unexpected character 'x' after the JSON value at byte 4"),
        ("[1, ]", "unexpected character ']' at byte 4"),
        ("[1,\n\u{B}]", "unexpected byte 0x0B at byte 4"),
        ("012", "invalid number: leading zero at byte 0"),
        ("[1.]", "invalid number: expected a digit at byte 3"),
        ("1e999", "number out of range at byte 0"),
        ("\"a\tb\"", "unescaped control character 0x09 in string at byte 2"),
        (#""\x""#, #"invalid escape '\x' in string at byte 1"#),
        (#""\u00zz""#, #"invalid \u escape: expected four hex digits at byte 5"#),
        (#""\uDC00""#, #"unpaired UTF-16 surrogate in \u escape at byte 1"#),
        ("[[[]]]", "arrays and objects nested deeper than 2 levels at byte 2"),
    ])
    func describesErrorsWithTheByteOffset(text: String, message: String) {
        let maxDepth = text == "[[[]]]" ? 2 : 64
        do {
            _ = try JSONParser.parse(text, maxDepth: maxDepth)
            Issue.record("expected \(text.debugDescription) to be rejected")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func describesInvalidUTF8() {
        #expect(JSONParseError(.invalidUTF8, at: 9).description == "invalid UTF-8 at byte 9")
        #expect(JSONParseError(.unexpectedCharacter(0xFF), at: 0).description == "unexpected byte 0xFF at byte 0")
        #expect(JSONParseError(.unexpectedCharacter(0x20), at: 3).description == "unexpected space at byte 3")
    }

    /// What the parser would have taken where it stopped, for the messages of files people write.
    @Test(arguments: [
        (#"{"port": 8080,}"#, JSONParseError.Expectation.key),
        ("{'port': 8080}", .keyOrEnd),
        (#"{"port" 8080}"#, .colon),
        (#"{"port": 8080 "host": "x"}"#, .commaOrBrace),
        (#"{"port": 8080"#, .commaOrBrace),
        (#"{"allowed-hosts": ["a" "b"]}"#, .commaOrBracket),
        ("[1,]", .value),
        ("port: 8080", .value),
        ("// settings\n{}", .value),
        (#"{"port": tru}"#, .literal("true")),
        (#"{"port": nul"#, .literal("null")),
        (#"{"host": "x}"#, .closingQuote),
        ("{} {}", .end),
        ("", .value),
    ])
    func namesWhatWasExpected(text: String, expected: JSONParseError.Expectation) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("expected \(text.debugDescription) to be rejected")
        } catch {
            #expect(error.expected == expected, "\(text.debugDescription): \(error)")
        }
    }

    @Test func describesExpectations() {
        #expect(JSONParseError.Expectation.key.description == "a key in double quotes")
        #expect(JSONParseError.Expectation.commaOrBrace.description == "',' or '}'")
        #expect(JSONParseError.Expectation.literal("true").description == "true")
    }

    /// Where an error is, as an editor counts: lines from 1, columns from 1 in characters.
    @Test(arguments: [
        ("{\n  \"port\": 8080,\n}\n", 3, 1),
        ("{\"a\": 1 x}", 1, 9),
        ("{\n  \"name\": \"caf\u{E9}\" x}", 2, 18),
        ("", 1, 1),
    ])
    func locatesErrorsByLineAndColumn(text: String, line: Int, column: Int) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("expected \(text.debugDescription) to be rejected")
        } catch {
            let location = error.location(in: Array(text.utf8))
            #expect(location.line == line && location.column == column, "\(text.debugDescription): \(location)")
        }
    }
}
