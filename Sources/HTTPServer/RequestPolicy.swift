#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Keeps browsers and foreign names out: the `Host` must name this server (DNS rebinding), and a
/// state-changing request sent by a web page must come from this server's own origin or an allowed one
/// (cross-site request forgery).
struct RequestPolicy: Sendable {
    /// Lower-cased host names (IPv6 in brackets) the `Host` header may carry, port aside; any IP address may too.
    let hostNames: Set<String>
    /// Lower-cased origins (`scheme://host[:port]`) allowed besides the server's own.
    let origins: Set<String>

    init(listenHost: String, allowedHosts: [String], allowedOrigins: [String]) {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        for name in [listenHost] + allowedHosts {
            let lowered = name.lowercased()
            names.insert(lowered.contains(":") && !lowered.hasPrefix("[") ? "[\(lowered)]" : lowered)
        }
        hostNames = names
        origins = Set(allowedOrigins.map { Self.normalizedOrigin($0) })
    }

    /// The refusal to answer instead of calling the responder, or nil when the request may go on.
    /// `hostRequired`: HTTP/1.1 requires a `Host`; HTTP/1.0 clients may leave it out. `acceptedHost`: the
    /// `Host` value this connection last sent and had accepted (a keep-alive client sends the same one each
    /// time, so only a new value is looked at); updated when a new one is accepted.
    /// `value` reads a known field's value (the first), `hostIs` tells whether the `Host` value is a given one
    /// without making a string of it, `headers` lists every field (read only to count repeated `Host`s).
    func refusal(
        method: String, known: KnownFields, value: (KnownField) -> String?, hostIs: (String) -> Bool,
        headers: () -> [(name: String, value: String)], hostRequired: Bool, acceptedHost: inout String?
    ) -> HTTPRefusal? {
        if known.isRepeated(.host) {
            return .severalHosts(count: headers().count { KnownField.of($0.name) == .host })
        }
        let hasHost = known.index(of: .host) != nil
        if !hasHost && hostRequired {
            return .missingHost
        }
        // A keep-alive client sends the same `Host` each time: told by its bytes, it costs no string.
        if hasHost, acceptedHost.map(hostIs) != true, let host = value(.host) {
            // An IP literal cannot be a rebinding: the page would then have that address as its own origin.
            let name = Self.hostName(host)
            if !hostNames.contains(name) && !Self.isIPLiteral(name) {
                return .misdirected(host: host, allowed: hostNames.sorted())
            }
            acceptedHost = host
        }
        guard method != "GET" && method != "HEAD" && method != "OPTIONS" else { return nil }
        let host = hasHost ? value(.host) : nil
        let origin = value(.origin)
        let site = value(.secFetchSite)
        if let origin {
            let normalized = Self.normalizedOrigin(origin)
            let own = host.map { "http://" + $0.lowercased() }
            if normalized != own && !origins.contains(normalized) {
                return .crossOrigin(origin: origin, allowed: origins.sorted())
            }
            return nil
        }
        if let site, site.lowercased() == "cross-site" {
            return .crossSite
        }
        return nil
    }

    /// The request's `Origin` when it is one of the allowed origins (`--allowed-origin`), as sent: answers to it
    /// carry CORS headers (`CrossOrigin`). The server's own origin needs none.
    func allowedCrossOrigin(known: KnownFields, value: (KnownField) -> String?) -> String? {
        guard !origins.isEmpty, known.index(of: .origin) != nil,
            let origin = value(.origin),
            origins.contains(Self.normalizedOrigin(origin))
        else { return nil }
        return origin
    }

    /// The name part of a `Host` value: `example.com:8080` → `example.com`, `[::1]:80` → `[::1]`.
    static func hostName(_ host: String) -> String {
        let lowered = host.lowercased()
        if lowered.hasPrefix("["), let end = lowered.firstIndex(of: "]") {
            return String(lowered[...end])
        }
        if let colon = lowered.lastIndex(of: ":") { return String(lowered[..<colon]) }
        return lowered
    }

    /// An IPv4 address, or an IPv6 address in brackets.
    static func isIPLiteral(_ name: String) -> Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if name.hasPrefix("[") && name.hasSuffix("]") {
            return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &ipv6) == 1
        }
        return inet_pton(AF_INET, name, &ipv4) == 1
    }

    private static func normalizedOrigin(_ origin: String) -> String {
        var lowered = origin.lowercased()
        while lowered.hasSuffix("/") { lowered.removeLast() }
        return lowered
    }
}
