/// One server-sent event (or comment) as a client reads it.
public struct ServerSentEvent: Sendable, Equatable {
    public var id: String?
    /// `event:`; "message" when absent. Empty for a comment.
    public var event: String
    public var data: String
    /// The text of a `:` comment line (a keep-alive), nil for an event.
    public var comment: String?
}

/// A `text/event-stream` reader over one connection: sends the request, checks the head, then hands back
/// events as they arrive, decoding the chunked body. For the live tests.
public final class EventStreamClient {
    public let connection: TestHTTPClient
    public let head: TestHTTPResponse
    private var text: [UInt8] = []
    private var ended = false

    public init(
        port: Int, path: String, headers: [(String, String)] = [], timeoutSeconds: Int = 5,
        receiveBufferBytes: Int32? = nil
    ) throws {
        connection = try TestHTTPClient(
            port: port, timeoutSeconds: timeoutSeconds, receiveBufferBytes: receiveBufferBytes)
        try connection.sendRequest(path: path, headers: [("Accept", "text/event-stream")] + headers)
        head = try connection.readHead()
    }

    /// The next event or comment; nil once the server ended the body (the last chunk).
    public func next() throws -> ServerSentEvent? {
        while true {
            if let event = takeEvent() { return event }
            if ended { return nil }
            guard let chunk = try connection.readChunk() else {
                ended = true
                continue
            }
            text += chunk
        }
    }

    /// The next event that is not a comment; nil at the end.
    public func nextEvent() throws -> ServerSentEvent? {
        while let event = try next() {
            if event.comment == nil { return event }
        }
        return nil
    }

    /// Events up to and including the first that `stop` accepts (or up to the end).
    public func events(until stop: (ServerSentEvent) -> Bool) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        while let event = try nextEvent() {
            events.append(event)
            if stop(event) { break }
        }
        return events
    }

    private func takeEvent() -> ServerSentEvent? {
        guard let end = blankLine() else { return nil }
        let block = String(decoding: text[..<end], as: UTF8.self)
        text.removeFirst(end + 2)
        var event = ServerSentEvent(id: nil, event: "message", data: "", comment: nil)
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.comment = String(line.dropFirst().drop { $0 == " " })
                event.event = ""
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
            switch parts[0] {
            case "id": event.id = value
            case "event": event.event = value
            case "data": data.append(value)
            default: break
            }
        }
        event.data = data.joined(separator: "\n")
        return event
    }

    private func blankLine() -> Int? {
        guard text.count >= 2 else { return nil }
        for index in 0..<(text.count - 1) where text[index] == 10 && text[index + 1] == 10 { return index }
        return nil
    }
}
