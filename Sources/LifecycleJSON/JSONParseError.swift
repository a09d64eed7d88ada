import LifecycleCore

/// Why `JSONParser` rejected its input, and where: `offset` is the zero-based byte index; `expected`, what
/// would have been taken there, when the parser knows.
///
/// `description` is a sentence fit for an API error body, e.g. "unexpected character '}' at byte 12".
/// It is built only when asked for, so rejecting hostile input stays cheap. Two errors are equal when they
/// have the same reason at the same byte (what was expected there follows from the input).
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The input ended inside a value (or was empty).
        case unexpectedEnd
        /// A byte that cannot start or continue the value being read.
        case unexpectedCharacter(UInt8)
        /// A complete value followed by something other than whitespace.
        case trailingCharacters(UInt8)
        /// A number missing the digits its grammar requires, e.g. `-`, `1.`, `1e`.
        case invalidNumber
        /// A number such as `01` or `-00`.
        case leadingZero
        /// A number too large for a Double, e.g. `1e999`.
        case numberOutOfRange
        /// A raw control byte (below 0x20) inside a string.
        case controlCharacterInString(UInt8)
        /// A backslash followed by a byte that is not a JSON escape.
        case invalidEscape(UInt8)
        /// `\u` not followed by four hex digits.
        case invalidUnicodeEscape
        /// A `\u` high surrogate without a low one after it, or a lone low surrogate.
        case unpairedSurrogate
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// Arrays and objects nested deeper than the parser's limit.
        case tooDeep(limit: Int)
        /// An object naming this key twice (only with `JSONParser.parse(rejectingDuplicateKeys:)`).
        case duplicateKey(String)
    }

    /// What the parser would have taken where it stopped, for a message to name after the problem.
    public enum Expectation: Equatable, Sendable, CustomStringConvertible {
        /// Any JSON value.
        case value
        /// An object's first key, or its end.
        case keyOrEnd
        /// An object's next key, after a comma.
        case key
        /// The colon after a key.
        case colon
        /// What follows an array's element.
        case commaOrBracket
        /// What follows an object's member.
        case commaOrBrace
        /// The closing quote of a string.
        case closingQuote
        /// The rest of `true`, `false` or `null`.
        case literal(String)
        /// Nothing but whitespace, after the value.
        case end

        public var description: String {
            switch self {
            case .value: "a value (an object, array, string in double quotes, number, true, false or null)"
            case .keyOrEnd: "a key in double quotes or '}'"
            case .key: "a key in double quotes"
            case .colon: "':' after the key"
            case .commaOrBracket: "',' or ']'"
            case .commaOrBrace: "',' or '}'"
            case .closingQuote: "the string's closing '\"'"
            case .literal(let word): word
            case .end: "nothing after the value"
            }
        }
    }

    public let reason: Reason
    public let offset: Int
    public let expected: Expectation?

    public init(_ reason: Reason, at offset: Int, expected: Expectation? = nil) {
        self.reason = reason
        self.offset = offset
        self.expected = expected
    }

    public static func == (lhs: JSONParseError, rhs: JSONParseError) -> Bool {
        lhs.reason == rhs.reason && lhs.offset == rhs.offset
    }

    public var description: String { problem + " at byte \(offset)" }

    /// What is wrong, without where: "unexpected character '}'".
    public var problem: String {
        switch reason {
        case .unexpectedEnd: "unexpected end of input"
        case .unexpectedCharacter(let byte): "unexpected \(Self.describe(byte))"
        case .trailingCharacters(let byte): "unexpected \(Self.describe(byte)) after the JSON value"
        case .invalidNumber: "invalid number: expected a digit"
        case .leadingZero: "invalid number: leading zero"
        case .numberOutOfRange: "number out of range"
        case .controlCharacterInString(let byte): "unescaped control character \(Self.hex(byte)) in string"
        case .invalidEscape(let byte): "invalid escape \(Self.describeEscape(byte)) in string"
        case .invalidUnicodeEscape: "invalid \\u escape: expected four hex digits"
        case .unpairedSurrogate: "unpaired UTF-16 surrogate in \\u escape"
        case .invalidUTF8: "invalid UTF-8"
        case .tooDeep(let limit): "arrays and objects nested deeper than \(limit) levels"
        case .duplicateKey(let key): "the key \"\(key)\" twice in one object (only the last would count)"
        }
    }

    /// Where the error is in `input` (the bytes that were parsed) as an editor counts: the line from 1, and
    /// the column from 1 in characters (Unicode scalars) after the line's start.
    public func location(in input: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), input.count)
        var line = 1
        var column = 1
        for byte in input[..<end] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "space" }
        return "byte \(hex(byte))"
    }

    private static func describeEscape(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "'\\\(Character(Unicode.Scalar(byte)))'" }
        return "'\\' followed by byte \(hex(byte))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }
}
