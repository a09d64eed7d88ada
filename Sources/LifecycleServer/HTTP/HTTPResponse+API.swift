import HTTPServer
import LifecycleCore
import LifecycleHosting
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
        if isNotModified(request, tag) { return HTTPResponse(status: 304, headers: notModifiedFields(etag: tag)) }
        return HTTPResponse(status: 200, headers: readFields(etag: tag, contentType: contentType), body: body)
    }

    /// A kept answer read again: its header fields were made with it, so the read allocates nothing.
    static func read(_ kept: CachedSnapshot, request: HTTPRequest) -> HTTPResponse {
        if isNotModified(request, kept.etag) { return HTTPResponse(status: 304, headers: kept.notModifiedFields) }
        return HTTPResponse(status: 200, headers: kept.fields, body: kept.json)
    }

    /// The header fields of a read's `200`.
    static func readFields(
        etag tag: String, contentType: String = "application/json"
    ) -> [(name: String, value: String)] {
        [("Content-Type", contentType), ("ETag", tag)]
    }

    /// The header fields of a read's `304`.
    static func notModifiedFields(etag tag: String) -> [(name: String, value: String)] { [("ETag", tag)] }

    private static func isNotModified(_ request: HTTPRequest, _ tag: String) -> Bool {
        guard let match = request.header(.ifNoneMatch) else { return false }
        return ETag.matches(match, tag)
    }
}

enum ETag {
    /// `If-None-Match`: `*`, or a list of tags, weak or strong (weak comparison, RFC 9110 §13.1.2). Read from
    /// the field's bytes: no string is made (dashboards ask with it on every poll).
    static func matches(_ header: String, _ tag: String) -> Bool {
        var header = header
        var tag = tag
        return header.withUTF8 { field in
            tag.withUTF8 { tag in
                var start = 0
                while start < field.count {
                    var end = start
                    while end < field.count && field[end] != UInt8(ascii: ",") { end += 1 }
                    defer { start = end + 1 }
                    var low = start
                    var high = end
                    while low < high && isBlank(field[low]) { low += 1 }
                    while high > low && isBlank(field[high - 1]) { high -= 1 }
                    if high - low == 1 && field[low] == UInt8(ascii: "*") { return true }
                    if high - low >= 2 && field[low] == UInt8(ascii: "W") && field[low + 1] == UInt8(ascii: "/") {
                        low += 2
                    }
                    if UnsafeBufferPointer(rebasing: field[low..<high]).elementsEqual(tag) { return true }
                }
                return false
            }
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
