import LifecycleApplication

/// The `text/event-stream` wire format (WHATWG HTML, "Server-sent events"): one event is `id:`, `event:` and
/// `data:` lines and a blank line. Entry and snapshot JSON never holds a raw newline, so one `data:` line
/// carries it whole.
enum EventStreamText {
    static let headers: [(name: String, value: String)] = [
        ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
    ]

    static let keepAlive = Array(": keep-alive\n\n".utf8)

    static func append(event name: String, id: UInt64? = nil, data: [UInt8], to out: inout [UInt8]) {
        if let id { out += Array("id: \(id)\n".utf8) }
        out += Array("event: \(name)\ndata: ".utf8)
        out += data
        out += [10, 10]
    }

    static func event(_ name: String, data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        append(event: name, data: data, to: &out)
        return out
    }
}

extension EventStreamEnd {
    /// The stream's last event: `event: end` with `data: {"reason": "..."}`.
    var event: [UInt8] {
        EventStreamText.event("end", data: Array(#"{"reason":"\#(rawValue)"}"#.utf8))
    }
}
