import HTTPServer
import LifecycleCore
import LifecycleJSON
import LifecycleWire

extension HTTPResponse {
    /// The header fields of a JSON answer, one array for all of them (a literal here would be made anew each time).
    private static let jsonHeaders = [(name: "Content-Type", value: "application/json")]

    static func json(_ status: Int, _ value: JSONValue, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        json(status, JSONWriter.encode(value), headers: headers)
    }

    static func json(_ status: Int, _ body: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers.isEmpty ? jsonHeaders : jsonHeaders + headers, body: body)
    }

    /// A read's answer with its `ETag`, or `304` when the client already has it.
    static func read(_ body: [UInt8], request: HTTPRequest, contentType: String = "application/json") -> HTTPResponse {
        read(body, etag: etag(of: body), request: request, contentType: contentType)
    }

    /// A strong validator from the bytes themselves: equal answers have equal tags, across restarts too.
    static func etag(of body: [UInt8]) -> String {
        "\"" + String(ContentHash.hash(body), radix: 16) + "\""
    }

    static func read(
        _ body: [UInt8], etag tag: String, request: HTTPRequest, contentType: String = "application/json"
    ) -> HTTPResponse {
        if let match = request.header(.ifNoneMatch), ETag.matches(match, tag) {
            return HTTPResponse(status: 304, headers: [("ETag", tag)])
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", contentType), ("ETag", tag)], body: body)
    }
}

enum ETag {
    /// `If-None-Match`: `*`, or a list of tags, weak or strong (weak comparison, RFC 9110 §13.1.2).
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var text = candidate.trimmingCharacters(in: " \t")
            if text == "*" { return true }
            if text.hasPrefix("W/") { text.removeFirst(2) }
            return text == tag
        }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
