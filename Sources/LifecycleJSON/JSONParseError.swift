import LifecycleCore

/// Why `JSONParser` rejected its input, and where: `offset` is the zero-based byte index.
///
/// `description` is a sentence fit for an API error body, e.g. "unexpected character '}' at byte 12".
/// It is built only when asked for, so rejecting hostile input stays cheap.
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

    public let reason: Reason
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        let at = " at byte \(offset)"
        switch reason {
        case .unexpectedEnd: return "unexpected end of input" + at
        case .unexpectedCharacter(let byte): return "unexpected \(Self.describe(byte))" + at
        case .trailingCharacters(let byte): return "unexpected \(Self.describe(byte)) after the JSON value" + at
        case .invalidNumber: return "invalid number: expected a digit" + at
        case .leadingZero: return "invalid number: leading zero" + at
        case .numberOutOfRange: return "number out of range" + at
        case .controlCharacterInString(let byte):
            return "unescaped control character \(Self.hex(byte)) in string" + at
        case .invalidEscape(let byte): return "invalid escape \(Self.describeEscape(byte)) in string" + at
        case .invalidUnicodeEscape: return "invalid \\u escape: expected four hex digits" + at
        case .unpairedSurrogate: return "unpaired UTF-16 surrogate in \\u escape" + at
        case .invalidUTF8: return "invalid UTF-8" + at
        case .tooDeep(let limit): return "arrays and objects nested deeper than \(limit) levels" + at
        case .duplicateKey(let key): return "the key \"\(key)\" twice in one object (only the last would count)" + at
        }
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
