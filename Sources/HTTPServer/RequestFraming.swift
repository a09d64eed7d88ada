/// Refuses requests whose body boundary is ambiguous, the way a proxy in front could read them
/// differently (request smuggling): several `Content-Length` fields, `Content-Length` together with
/// `Transfer-Encoding`, and any transfer coding but `chunked`. Answered before the body, with the connection
/// closed after the answer.
enum RequestFraming {
    static func problem(headers: [(name: String, value: String)]) -> HTTPResponse? {
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
        for header in headers {
            if asciiCaseInsensitiveEquals(header.name, "Content-Length") { contentLengths.append(header.value) }
            if asciiCaseInsensitiveEquals(header.name, "Transfer-Encoding") { transferEncodings.append(header.value) }
        }
        if contentLengths.count > 1 {
            return ProblemResponse.badFraming(
                "The request has \(contentLengths.count) Content-Length fields (\(contentLengths.joined(separator: ", "))); exactly one is allowed.",
                code: "ambiguous-content-length")
        }
        guard !transferEncodings.isEmpty else { return nil }
        if !contentLengths.isEmpty {
            return ProblemResponse.badFraming(
                "The request has both Content-Length and Transfer-Encoding; send one of them.",
                code: "ambiguous-content-length")
        }
        let codings = transferEncodings.joined(separator: ",").split(separator: ",").map {
            $0.trimmingCharacters(in: " \t").lowercased()
        }
        if codings != ["chunked"] {
            return ProblemResponse.badFraming(
                "Transfer-Encoding \"\(transferEncodings.joined(separator: ", "))\" is not supported; only chunked is.",
                status: 501, code: "unsupported-transfer-encoding")
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
