import CoreMetrics
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A client's IP address, the key of the per-client connection limit, and what the access log shows.
public struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    /// `127.0.0.1`, `::1`.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, bytes, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

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

/// Open connections, in all and per client address, over all daemons. A connection is admitted while
/// fewer than `limit` are open and its client holds fewer than `perClientLimit`; counted from
/// `MHD_CONNECTION_NOTIFY_STARTED` to `..._CLOSED`. Two loops accepting at the same instant may admit one
/// connection each past a limit; never more. The counts are the metrics `lifecycled_http_connections_open`
/// and `lifecycled_http_connections_refused_total{reason}`.
final class ClientConnections: Sendable {
    let limit: Int
    let perClientLimit: Int
    private let counts = Protected<(total: Int, byClient: [ClientAddress: Int])>((0, [:]))
    private let openGauge = Gauge(label: "lifecycled_http_connections_open")
    private let refusedAtLimit = Counter(
        label: "lifecycled_http_connections_refused_total", dimensions: [("reason", "max-connections")])
    private let refusedPerClient = Counter(
        label: "lifecycled_http_connections_refused_total", dimensions: [("reason", "max-connections-per-client")])

    init(limit: Int, perClientLimit: Int) {
        self.limit = limit
        self.perClientLimit = perClientLimit
    }

    /// Whether a new connection from `client` (nil: not IP) may open; a refusal is counted.
    func admits(_ client: ClientAddress?) -> Bool {
        let (underLimit, clientUnderLimit) = counts.withLock { counts in
            (counts.total < limit, client.map { counts.byClient[$0, default: 0] < perClientLimit } ?? true)
        }
        if !underLimit {
            refusedAtLimit.increment()
        } else if !clientUnderLimit {
            refusedPerClient.increment()
        }
        return underLimit && clientUnderLimit
    }

    func opened(_ client: ClientAddress?) {
        let total = counts.withLock { counts in
            counts.total += 1
            if let client { counts.byClient[client, default: 0] += 1 }
            return counts.total
        }
        openGauge.record(total)
    }

    func closed(_ client: ClientAddress?) {
        let total = counts.withLock { counts in
            counts.total -= 1
            if let client {
                let remaining = counts.byClient[client, default: 1] - 1
                counts.byClient[client] = remaining > 0 ? remaining : nil
            }
            return counts.total
        }
        openGauge.record(total)
    }
}
