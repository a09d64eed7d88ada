import HTTPServer

extension HTTPRequest {
    /// The method and path as a log line may show them: a client chooses every byte, so a control character
    /// (a decoded `%0A` starts a line of the client's choosing), `%` itself and anything outside printable ASCII
    /// are written `%XX`, and a log reader sees the request, never a forged line.
    var loggedMethod: String { Self.logged(method) }
    var loggedPath: String { Self.logged(path) }

    static func logged(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte >= 0x21 && byte < 0x7F && byte != UInt8(ascii: "%") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hexDigit(byte >> 4))
                out.unicodeScalars.append(hexDigit(byte & 0xF))
            }
        }
        return out
    }

    private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
    }
}
