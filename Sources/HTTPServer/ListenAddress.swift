#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket address the daemon binds, built from the configured host and port.
struct ListenAddress {
    private(set) var storage = sockaddr_storage()
    let length: socklen_t
    let isIPv6: Bool

    init(host: String, port: Int) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, literal, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = UInt16(port).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            isIPv6 = false
            withUnsafeBytes(of: ipv4) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
        } else if inet_pton(AF_INET6, literal, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = UInt16(port).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            isIPv6 = true
            withUnsafeBytes(of: ipv6) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
        } else {
            throw .invalidHost(host)
        }
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) throws -> T) rethrows -> T {
        try withUnsafeBytes(of: storage) { bytes in
            try body(bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self))
        }
    }

    /// Why binding this address fails, found by trying it the way libmicrohttpd does
    /// (libmicrohttpd itself only reports failure); nil when the probe binds fine.
    func bindFailureReason() -> String? {
        #if canImport(Darwin)
            let streamType = SOCK_STREAM
        #else
            let streamType = Int32(SOCK_STREAM.rawValue)
        #endif
        let probe = socket(isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard probe >= 0 else { return String(cString: strerror(errno)) }
        defer { close(probe) }
        var on: Int32 = 1
        _ = setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let result = withSockaddr { bind(probe, $0, length) }
        return result == 0 ? nil : String(cString: strerror(errno))
    }
}
