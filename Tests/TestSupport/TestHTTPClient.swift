#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

public struct TestClientError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// A parsed response as the test client read it off the wire.
public struct TestHTTPResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A small blocking HTTP/1.1 client over one TCP connection, with a read timeout so a broken server
/// fails a test instead of hanging it. Speaks just enough HTTP for the tests: bodies with a
/// Content-Length, chunked ones, or up to the end of the stream without either. Shared by every live test
/// target.
public final class TestHTTPClient {
    /// The socket; -1 once closed, so it is closed exactly once: a second `close` could close a descriptor
    /// number the server in this process has been given since, and libmicrohttpd aborts on that.
    private var fd: Int32
    private var buffer: [UInt8] = []

    /// `receiveBufferBytes`: a small `SO_RCVBUF`, set before connecting, for a client that reads slowly.
    public init(port: Int, timeoutSeconds: Int = 5, receiveBufferBytes: Int32? = nil) throws {
        #if canImport(Darwin)
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw TestClientError(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            fd = -1
            throw TestClientError(description: "connect to port \(port) failed: \(reason)")
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Sends one request; adds `Host: localhost` unless `headers` has a Host and, when there is a body or the
    /// method is POST, Content-Length.
    public func sendRequest(
        method: String = "GET", path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: localhost\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try sendBytes(Array(head.utf8) + body)
    }

    public func sendBytes(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else {
                throw TestClientError(description: "send failed: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    public func request(
        method: String = "GET", path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> TestHTTPResponse {
        try sendRequest(method: method, path: path, headers: headers, body: body)
        return try readResponse()
    }

    /// Reads one response (a chunked body up to its last chunk); `hasBody` false for the answer to HEAD, which has Content-Length but no body. A 204
    /// or 304 never has one (RFC 9110), nor a Content-Length to say so.
    public func readResponse(hasBody: Bool = true) throws -> TestHTTPResponse {
        let head = try readHead()
        if !hasBody || head.status == 204 || head.status == 304 { return head }
        if head.headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value == "chunked" }) {
            // Chunk by chunk up to the last: a body cut before it throws, as it reaches no client whole.
            var body: [UInt8] = []
            while let chunk = try readChunk() { body += chunk }
            return TestHTTPResponse(status: head.status, headers: head.headers, body: body)
        }
        guard
            let length = head.headers.first(where: { $0.name.lowercased() == "content-length" })
                .flatMap({ Int($0.value) })
        else {
            while try fill() {}
            defer { buffer = [] }
            return TestHTTPResponse(status: head.status, headers: head.headers, body: buffer)
        }
        while buffer.count < length {
            guard try fill() else { throw TestClientError(description: "the body ended early") }
        }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return TestHTTPResponse(status: head.status, headers: head.headers, body: body)
    }

    /// Reads a response's status line and headers only, for a body read piece by piece (`readChunk()`).
    public func readHead() throws -> TestHTTPResponse {
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestClientError(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        return TestHTTPResponse(status: status, headers: headers, body: [])
    }

    /// Reads one chunk of a chunked body; nil for the last (empty) chunk, after which the trailer is consumed.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw TestClientError(description: "bad chunk size line \(sizeLine)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        while buffer.count < size + 2 {
            guard try fill() else { throw TestClientError(description: "the stream ended inside a chunk") }
        }
        let chunk = Array(buffer[..<size])
        buffer.removeFirst(size + 2)
        return chunk
    }

    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard try fill() else { throw TestClientError(description: "the stream ended inside a line") }
        }
    }

    /// True when the server closed the connection (reads end of stream, or a reset) within the read timeout.
    public func serverClosed() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private func readUntilHeadEnd() throws -> Int {
        let marker: [UInt8] = [13, 10, 13, 10]
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                for index in searchFrom...(buffer.count - 4) where buffer[index..<index + 4].elementsEqual(marker) {
                    return index
                }
                searchFrom = buffer.count - 3
            }
            guard try fill() else { throw TestClientError(description: "the server closed before answering") }
        }
    }

    /// Appends what arrives; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw TestClientError(description: "recv failed: \(String(cString: strerror(errno)))") }
        buffer.append(contentsOf: chunk[..<count])
        return count > 0
    }
}
