/// Refuses requests whose body boundary is ambiguous, the way a proxy in front could read them
/// differently (request smuggling): a field name that is not a token or that extends a framing field's
/// (whitespace before the colon, a folded line), a field value holding a bare CR or a NUL, several
/// `Content-Length` fields, `Content-Length` together
/// with `Transfer-Encoding`, and any transfer coding but `chunked`. Answered before the body, with the
/// connection closed after the answer.
///
/// `RequestFields` notes each field into it as libmicrohttpd hands it over, reading the name's bytes in
/// place: an ordinary request's fields cost a pass over their names and nothing more. It also keeps the
/// body length the first `Content-Length` declares, so each name is compared with it once.
struct RequestFraming {
    /// The first field name that is not well formed.
    private var malformedName: String?
    /// The name of the first field whose value holds a CR or a NUL.
    private var malformedValue: String?
    private var contentLengths: [String] = []
    private var transferEncodings: [String] = []
    /// The body length the first `Content-Length` field declares, or nil without one or when its value is
    /// not a decimal number (a request with several is refused by `refusal` before this is read).
    private(set) var declaredBodyBytes: UInt64?

    /// Notes one field, `name` its bytes as sent, whose name was already told (`KnownField.of`): a known field's
    /// name is a token, and the framing fields are known ones. `value` is made only for a framing field.
    mutating func note(name: UnsafeRawBufferPointer, field: KnownField?, value: () -> String) {
        switch field {
        case .contentLength?:
            let value = value()
            if contentLengths.isEmpty { declaredBodyBytes = UInt64(value) }
            contentLengths.append(value)
        case .transferEncoding?:
            transferEncodings.append(value())
        case .some:
            break
        case nil:
            if malformedName == nil, !Self.isWellFormedName(name) {
                malformedName = String(decoding: name, as: UTF8.self)
            }
        }
    }

    /// Notes that the value of the field called `name` holds a CR or a NUL, which a proxy in front could read
    /// as a line's end or a string's.
    mutating func noteMalformedValue(of name: UnsafeRawBufferPointer) {
        if malformedValue == nil { malformedValue = String(decoding: name, as: UTF8.self) }
    }

    var refusal: HTTPRefusal? {
        if let malformedName { return .malformedFieldName(malformedName) }
        if let malformedValue { return .malformedFieldValue(malformedValue) }
        if contentLengths.count > 1 {
            return .severalContentLengths(contentLengths)
        }
        guard !transferEncodings.isEmpty else { return nil }
        if !contentLengths.isEmpty {
            return .contentLengthWithTransferEncoding
        }
        let codings = transferEncodings.joined(separator: ",").split(separator: ",").map {
            $0.trimmingCharacters(in: " \t").lowercased()
        }
        if codings != ["chunked"] {
            return .unsupportedTransferEncoding(transferEncodings.joined(separator: ", "))
        }
        return nil
    }

    /// A token (RFC 9110 tchar), and not a framing field's name with more after it.
    static func isWellFormedName(_ name: UnsafeRawBufferPointer) -> Bool {
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return false }
        return !extendsName("content-length", name) && !extendsName("transfer-encoding", name)
    }

    /// Whether `name` starts with `framing` (ASCII case folded) and goes on past it.
    private static func extendsName(_ framing: StaticString, _ name: UnsafeRawBufferPointer) -> Bool {
        name.count > framing.utf8CodeUnitCount && startsWith(name, framing)
    }

    private static func startsWith(_ name: UnsafeRawBufferPointer, _ lowercased: StaticString) -> Bool {
        let prefix = UnsafeBufferPointer(start: lowercased.utf8Start, count: lowercased.utf8CodeUnitCount)
        guard name.count >= prefix.count else { return false }
        for index in 0..<prefix.count where asciiLowercased(name[index]) != prefix[index] { return false }
        return true
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        // ! # $ % & ' * + - . ^ _ ` | ~
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:
            true
        default:
            false
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
