import HTTPServer
import Logging
import Synchronization

/// A request's id: the client's `X-Request-Id` when it is 1 to 128 visible ASCII characters, else one made
/// here: this process's random prefix (6 hex digits) and a counter, at most 15 bytes until the counter passes
/// 2^32, so a Swift small string that needs no allocation. The answer carries it back
/// (`HTTPResponse.requestID`), and the access log shows it.
enum RequestID {
    /// This process's prefix: 6 hex digits (0x100000...0xFFFFFF).
    private static let prefix = UInt32.random(in: 0x10_0000...0xFF_FFFF)
    private static let counter = Atomic<UInt64>(0)

    static func of(_ request: HTTPRequest) -> String {
        if let given = request.header(.requestID), (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        {
            return given
        }
        return made(counter.add(1, ordering: .relaxed).newValue)
    }

    /// The prefix and its dash as the 7 bytes every made id starts with, written once.
    private static let prefixBytes: (UInt32, UInt32) = {
        var bytes = [UInt8](repeating: 0, count: 8)
        for index in 0..<6 { bytes[index] = hexDigit(UInt8(truncatingIfNeeded: prefix >> (20 - 4 * index)) & 0xF) }
        bytes[6] = UInt8(ascii: "-")
        return bytes.withUnsafeBytes { ($0.load(as: UInt32.self), $0.load(fromByteOffset: 4, as: UInt32.self)) }
    }()

    /// The prefix, a dash and `number` in hex, written into a stack buffer (the digits from the last one back):
    /// one string made, no concatenation.
    private static func made(_ number: UInt64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
            let (first, second) = prefixBytes
            raw.storeBytes(of: first, as: UInt32.self)
            raw.storeBytes(of: second, toByteOffset: 4, as: UInt32.self)
            let digits = max(1, (64 &- number.leadingZeroBitCount &+ 3) / 4)
            var rest = number
            var index = 7 &+ digits
            repeat {
                index &-= 1
                buffer[index] = hexDigit(UInt8(truncatingIfNeeded: rest) & 0xF)
                rest >>= 4
            } while index > 7
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<(7 + digits)]), as: UTF8.self)
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }
}

extension LifecycleService {
    /// One line per answered request, at info: who (client address, token name, never the token), what
    /// (method, route, path escaped), how it went (status, microseconds, body bytes) and the request id. Called
    /// when `logsAccess`.
    func logAccess(
        _ request: HTTPRequest, match: Route.Match, response: HTTPResponse, nanoseconds: UInt64, token: String?,
        id: String
    ) {
        logger.info(
            "request",
            metadata: [
                "client": "\(request.client?.description ?? "-")", "method": "\(request.loggedMethod)",
                "route": "\(match.route.rawValue)", "path": "\(request.loggedPath)",
                "status": .stringConvertible(response.status),
                "micros": .stringConvertible(nanoseconds / 1000),
                "bytes": .stringConvertible(response.stream == nil ? response.body.count : -1),
                "token": "\(token ?? "-")", "requestId": "\(id)",
            ])
    }
}
