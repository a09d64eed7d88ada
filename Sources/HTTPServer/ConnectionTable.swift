
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The open connections of one daemon, from `MHD_CONNECTION_NOTIFY_STARTED` to `..._CLOSED`: their socket,
/// their client, and the deadline for a whole request head when one is awaited.
///
/// libmicrohttpd's own timeout restarts on every byte, so a client sending a header byte every few seconds
/// (slowloris) would hold its connection forever. Here the deadline starts when the connection opens or its
/// previous answer is done, and only a complete head (the access handler's first call) clears it.
final class ConnectionTable: Sendable {
    struct Entry {
        let socket: Int32
        let client: ClientAddress?
        /// When the connection is closed unless a request head arrived; nil while a request is under way.
        var headDeadline: ContinuousClock.Instant?
        /// The current request's target as sent, from the URI log callback until the access handler takes it.
        var rawTarget: String?
    }

    let idleTimeout: Duration
    private let entries = Protected<[Int: Entry]>([:])

    init(idleTimeout: Duration) {
        self.idleTimeout = idleTimeout
    }

    var count: Int { entries.withLock { $0.count } }

    func opened(_ connection: OpaquePointer, socket: Int32, client: ClientAddress?) {
        let entry = Entry(socket: socket, client: client, headDeadline: .now + idleTimeout)
        entries.withLock { $0[Int(bitPattern: connection)] = entry }
    }

    /// Forgets the connection and hands back its client, so its per-client count can drop.
    func closed(_ connection: OpaquePointer) -> ClientAddress? {
        entries.withLock { $0.removeValue(forKey: Int(bitPattern: connection)) }?.client
    }

    func receivedTarget(_ target: String, on connection: OpaquePointer) {
        entries.withLock { $0[Int(bitPattern: connection)]?.rawTarget = target }
    }

    /// A request head arrived: no deadline until its answer is done. Hands back the target as sent.
    func requestStarted(on connection: OpaquePointer) -> String? {
        entries.withLock { entries in
            let key = Int(bitPattern: connection)
            entries[key]?.headDeadline = nil
            defer { entries[key]?.rawTarget = nil }
            return entries[key]?.rawTarget
        }
    }

    /// The answer went out: the next head is due within the idle timeout. Only updates a known connection.
    func requestEnded(on connection: OpaquePointer) {
        let deadline = ContinuousClock.now + idleTimeout
        entries.withLock { $0[Int(bitPattern: connection)]?.headDeadline = deadline }
    }

    /// Shuts down the socket of every connection whose head deadline passed; libmicrohttpd then sees the
    /// hang-up and closes it. Run only on the thread that runs the daemon, so no socket is closed meanwhile.
    /// Returns how many were cut off.
    @discardableResult
    func cutOffOverdue(now: ContinuousClock.Instant = .now) -> Int {
        let overdue = entries.withLock { entries -> [Int32] in
            var sockets: [Int32] = []
            for (key, entry) in entries {
                guard let deadline = entry.headDeadline, deadline <= now else { continue }
                sockets.append(entry.socket)
                entries[key]?.headDeadline = nil
            }
            return sockets
        }
        for socket in overdue { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        return overdue.count
    }
}
