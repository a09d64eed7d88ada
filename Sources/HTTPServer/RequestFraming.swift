/// Refuses requests whose body boundary is ambiguous, the way a proxy in front could read them
/// differently (request smuggling): a field name that is not a token or that extends a framing field's
/// (whitespace before the colon, a folded line), several `Content-Length` fields, `Content-Length` together
/// with `Transfer-Encoding`, and any transfer coding but `chunked`. Answered before the body, with the
/// connection closed after the answer.
enum RequestFraming {
    static func refusal(headers: [(name: String, value: String)]) -> HTTPRefusal? {
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
        for header in headers where !isWellFormedName(header.name) {
            return .malformedFieldName(header.name)
        }
        for header in headers {
            if asciiCaseInsensitiveEquals(header.name, "Content-Length") { contentLengths.append(header.value) }
            if asciiCaseInsensitiveEquals(header.name, "Transfer-Encoding") { transferEncodings.append(header.value) }
        }
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
    /// Runs for every field of every request: no allocation.
    static func isWellFormedName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { return false }
        return !extendsName("content-length", name) && !extendsName("transfer-encoding", name)
    }

    /// Whether `name` starts with `framing` (ASCII case folded) and goes on past it.
    private static func extendsName(_ framing: StaticString, _ name: String) -> Bool {
        let prefix = UnsafeBufferPointer(start: framing.utf8Start, count: framing.utf8CodeUnitCount)
        guard name.utf8.count > prefix.count else { return false }
        return zip(name.utf8, prefix).allSatisfy { asciiLowercased($0) == $1 }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
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
