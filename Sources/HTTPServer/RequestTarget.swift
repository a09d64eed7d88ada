/// Checks the request target as sent (before libmicrohttpd decodes it), which the decoded path can no
/// longer show: `%00` would cut the path short and `%2F` would turn one segment into two.
enum RequestTarget {
    /// Longest request target (path and query) accepted, in bytes.
    static let maxBytes = 4096
    /// Most query parameters accepted.
    static let maxQueryParameters = 100

    /// The refusal of a target as sent (its bytes, read in place), or nil.
    static func refusal(target bytes: UnsafeRawBufferPointer) -> HTTPRefusal? {
        if bytes.count > maxBytes { return .targetTooLong(bytes: bytes.count, limit: maxBytes) }
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        var index = 0
        while index < queryStart {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < queryStart,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if decoded == 0 || decoded == UInt8(ascii: "/") {
                    return .invalidPath(decoded == 0 ? .encodedNUL : .encodedSlash)
                }
                index += 3
            } else {
                if bytes[index] == 0 {
                    return .invalidPath(.nulByte)
                }
                index += 1
            }
        }
        if queryStart < bytes.endIndex {
            // Every piece between `&`s counts, an empty one too: libmicrohttpd keeps each in the connection's
            // memory, so a query of thousands of `&` would exhaust it before any answer.
            var parameters = 1
            for byte in bytes[(queryStart + 1)...] where byte == UInt8(ascii: "&") { parameters += 1 }
            if parameters > maxQueryParameters {
                return .tooManyQueryParameters(count: parameters, limit: maxQueryParameters)
            }
        }
        return nil
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
