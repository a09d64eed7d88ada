/// One libmicrohttpd daemon's context, handed to all its callbacks: the shared core, its connections, and
/// the wake-up of the event loop that runs it (nil when libmicrohttpd runs the daemon on its own threads).
final class Worker: Sendable {
    let core: ServerCore
    let connections: ConnectionTable
    let wakeUp: EventSignal?
    /// Parked sockets watched for a client that leaves; nil when libmicrohttpd runs the daemon on its own threads.
    let departures: DepartureWatch?

    init(core: ServerCore, idleTimeout: Duration, wakeUp: EventSignal?, departures: DepartureWatch? = nil) {
        self.core = core
        self.connections = ConnectionTable(idleTimeout: idleTimeout)
        self.wakeUp = wakeUp
        self.departures = departures
    }

    /// Called right after `MHD_resume_connection`: without an internal thread nothing else makes the
    /// loop run the daemon again, so the resumed connection would wait for unrelated traffic.
    func connectionResumed() {
        wakeUp?.signal()
    }
}
