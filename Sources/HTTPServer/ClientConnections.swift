import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A client's IP address, the key of the per-client connection limit.
struct ClientAddress: Hashable, Sendable {
    let bytes: [UInt8]

    /// Nil for anything but IPv4 and IPv6.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                withUnsafeBytes(of: ipv4.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) }
            }
        default:
            return nil
        }
    }
}

/// Open connections per client address, over all daemons. A connection is admitted while its client holds
/// fewer than `limit`; counted from `MHD_CONNECTION_NOTIFY_STARTED` to `..._CLOSED`. Two loops accepting
/// at the same instant may admit one connection each past the limit; never more.
final class ClientConnections: Sendable {
    let limit: Int
    private let counts = Protected<[ClientAddress: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    func admits(_ client: ClientAddress) -> Bool {
        counts.withLock { $0[client, default: 0] < limit }
    }

    func opened(_ client: ClientAddress) {
        counts.withLock { $0[client, default: 0] += 1 }
    }

    func closed(_ client: ClientAddress) {
        counts.withLock { counts in
            let remaining = counts[client, default: 1] - 1
            counts[client] = remaining > 0 ? remaining : nil
        }
    }
}
