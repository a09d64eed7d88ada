import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct ClientError: Error, CustomStringConvertible {
    let description: String
}

/// One answer as read off the wire.
struct Reply: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed by Foundation; nil when it is not JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }

    /// The body as a JSON object; empty when it is anything else.
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// `items` of a page or list.
    var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }

    /// `entries` of an events answer.
    var entries: [[String: Any]] { object["entries"] as? [[String: Any]] ?? [] }

    /// The member as an integer, whatever number type Foundation chose.
    func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }

    func string(_ key: String) -> String? { object[key] as? String }

    /// A member that is itself an object (`app`, `device`); empty when it is not.
    func nested(_ key: String) -> [String: Any] { object[key] as? [String: Any] ?? [:] }
}

/// A blocking HTTP/1.1 client: one TCP connection per request (`Connection: close`), with a read timeout
/// so a server that never answers fails the test instead of hanging it.
enum BlockingHTTPClient {
    static func exchange(
        port: Int, method: String, path: String, headers: [(String, String)], body: [UInt8],
        timeoutSeconds: Int = 20
    ) throws -> Reply {
        let fd = try openConnection(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try sendAll(fd, Array(head.utf8) + body)
        return try readReply(fd)
    }

    private static func openConnection(port: Int, timeoutSeconds: Int) throws -> Int32 {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw ClientError(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
            throw ClientError(description: "connect to port \(port) failed: \(reason)")
        }
        return fd
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ClientError(description: "send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads the head, then `Content-Length` bytes of body (or up to the end of the stream without one).
    private static func readReply(_ fd: Int32) throws -> Reply {
        var buffer: [UInt8] = []
        var headEnd: Int?
        var searchFrom = 0
        while headEnd == nil {
            guard try fill(fd, &buffer) else { throw ClientError(description: "the server closed before answering") }
            if buffer.count >= 4 {
                for index in searchFrom...(buffer.count - 4)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
                    && buffer[index + 3] == 10
                {
                    headEnd = index
                    break
                }
                searchFrom = max(0, buffer.count - 3)
            }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ClientError(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return (name: String(line[..<colon]), value: String(value))
        }
        var body = Array(buffer[(headEnd! + 4)...])
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
        if let length {
            while body.count < length {
                guard try fill(fd, &body) else { throw ClientError(description: "the body ended early") }
            }
            body = Array(body[..<length])
        } else {
            while try fill(fd, &body) {}
        }
        return Reply(status: status, headers: headers, body: body)
    }

    /// Appends what arrives; false at the end of the stream.
    private static func fill(_ fd: Int32, _ buffer: inout [UInt8]) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw ClientError(description: "recv failed: \(String(cString: strerror(errno)))") }
        buffer.append(contentsOf: chunk[..<count])
        return count > 0
    }
}
