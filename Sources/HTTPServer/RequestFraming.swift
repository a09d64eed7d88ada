/// Refuses requests whose body boundary is ambiguous, the way a proxy in front could read them
/// differently (request smuggling): several `Content-Length` fields, `Content-Length` together with
/// `Transfer-Encoding`, and any transfer coding but `chunked`. Answered before the body, with the connection
/// closed after the answer.
enum RequestFraming {
    static func refusal(headers: [(name: String, value: String)]) -> HTTPRefusal? {
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
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
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
