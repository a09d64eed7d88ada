import CMicroHTTPD
import Locking

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
///
/// Each connection's `OpenConnection` hangs on libmicrohttpd's socket context, so the per-request updates
/// (target, start, end) find it without a lookup or a lock; the table itself, under its lock, changes only
/// when a connection opens or closes.
final class ConnectionTable: Sendable {
    let idleTimeout: MonotonicTime.Interval
    private let entries = Protected<[Int: OpenConnection]>([:])

    init(idleTimeout: MonotonicTime.Interval) {
        self.idleTimeout = idleTimeout
    }

    var count: Int { entries.withLock { $0.count } }

    /// Registers a connection; `socketContext` is libmicrohttpd's slot for it, which holds the state until closed.
    func opened(
        _ connection: OpaquePointer, socket: Int32, client: ClientAddress?,
        socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) {
        let state = OpenConnection(socket: socket, client: client, headDeadline: MonotonicTime.now + idleTimeout)
        socketContext?.pointee = Unmanaged.passUnretained(state).toOpaque()
        entries.withLock { $0[Int(bitPattern: connection)] = state }
    }

    /// Forgets the connection and hands back its state (nil when it was not known), so its counts can drop.
    func closed(_ connection: OpaquePointer) -> OpenConnection? {
        entries.withLock { $0.removeValue(forKey: Int(bitPattern: connection)) }
    }

    func checkedTarget(_ refusal: HTTPRefusal?, on connection: OpaquePointer) {
        Self.state(of: connection)?.targetRefusal = refusal
    }

    /// A request head arrived: no deadline until its answer is done. Hands back the connection's state (whose
    /// `takeTargetRefusal()` is what this request's target as sent is refused for, if anything).
    func requestStarted(on connection: OpaquePointer) -> OpenConnection? {
        guard let state = Self.state(of: connection) else { return nil }
        state.headDeadline = nil
        return state
    }

    /// The answer went out: the next head is due within the idle timeout. Only updates a known connection.
    func requestEnded(on connection: OpaquePointer) {
        Self.state(of: connection)?.headDeadline = MonotonicTime.now + idleTimeout
    }

    /// Shuts down the socket of every connection whose head deadline passed; libmicrohttpd then sees the
    /// hang-up and closes it. Run only on the thread that runs the daemon, so no socket is closed meanwhile
    /// and no callback changes a deadline meanwhile. Returns how many were cut off.
    @discardableResult
    func cutOffOverdue(now: MonotonicTime = .now) -> Int {
        let open = entries.withLock { Array($0.values) }
        var overdue = 0
        for state in open {
            guard let deadline = state.headDeadline, deadline <= now else { continue }
            state.headDeadline = nil
            _ = shutdown(state.socket, Int32(SHUT_RDWR))
            overdue += 1
        }
        return overdue
    }

    /// The connection's state, from its socket context; held alive by the table until the connection closes.
    private static func state(of connection: OpaquePointer) -> OpenConnection? {
        guard let context = lifecycled_mhd_socket_context(connection) else { return nil }
        return Unmanaged<OpenConnection>.fromOpaque(context).takeUnretainedValue()
    }
}

/// One open connection. Its fields change only on the thread that serves the connection (libmicrohttpd runs
/// every callback of a connection on one thread, and the sweep runs on the loop's own thread), one access at a
/// time: the runtime's exclusivity checks on them are left out.
final class OpenConnection: @unchecked Sendable {
    let socket: Int32
    let client: ClientAddress?
    /// When the connection is closed unless a request head arrived; nil while a request is under way.
    @exclusivity(unchecked) var headDeadline: MonotonicTime?
    /// What the current request's target as sent is refused for (`RequestTarget`), if anything: from the URI log
    /// callback until the access handler takes it.
    @exclusivity(unchecked) var targetRefusal: HTTPRefusal?
    /// The `Host` value last accepted on this connection (`RequestPolicy`).
    @exclusivity(unchecked) var acceptedHost: String?

    init(socket: Int32, client: ClientAddress?, headDeadline: MonotonicTime?) {
        self.socket = socket
        self.client = client
        self.headDeadline = headDeadline
    }

    /// The current request's target as sent, handed over once.
    func takeTargetRefusal() -> HTTPRefusal? {
        defer { targetRefusal = nil }
        return targetRefusal
    }
}
