/// One libmicrohttpd daemon's context, handed to all its callbacks: the shared core, its connections, and
/// the wake-up of the event loop that runs it.
final class LoopContext: Sendable {
    let core: ServerContext
    let connections: ConnectionTable
    let wakeUp: EventSignal
    /// Parked sockets watched for a client that leaves.
    let departures: DepartureWatch
    /// Request contexts kept for the daemon's next requests.
    let requests = RequestContextPool()

    init(core: ServerContext, idleTimeout: MonotonicTime.Interval, wakeUp: EventSignal, departures: DepartureWatch) {
        self.core = core
        self.connections = ConnectionTable(idleTimeout: idleTimeout)
        self.wakeUp = wakeUp
        self.departures = departures
    }

    /// Called right after `MHD_resume_connection`: the daemon has no thread of its own, so nothing else makes
    /// the loop run it again, and the resumed connection would wait for unrelated traffic.
    func connectionResumed() {
        wakeUp.signal()
    }
}
