import CMicroHTTPD
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A thread running one libmicrohttpd daemon that has no thread of its own (`MHD_USE_EPOLL` without
/// `MHD_USE_INTERNAL_POLLING_THREAD`).
///
/// Why: libmicrohttpd 0.9.75's internal epoll loop, when `epoll_wait` returns exactly 128 events, waits again
/// with the same blocking timeout before serving them, and sleeps until a timeout or new traffic. Here the
/// thread itself waits on the daemon's epoll descriptor (for `MHD_get_timeout` at most), then calls `MHD_run`,
/// whose own re-poll uses a zero wait, so it can never sleep with ready connections.
///
/// The loop also wakes on `wakeUp` (written after each `MHD_resume_connection`), on `stopRequest`, on
/// a parked client's departure and when a parked socket is due to be watched (`DepartureWatch`), and
/// cuts off connections past their head deadline (see `ConnectionTable`) at least every `sweepInterval`.
final class EventLoop: Sendable {
    /// Used by the loop thread, and by `stop()`'s caller only after the thread has ended.
    nonisolated(unsafe) let daemon: OpaquePointer
    let worker: LoopContext
    private let stopRequest: EventSignal
    private let thread = Protected<pthread_t?>(nil)
    private static let sweepInterval = MonotonicTime.Interval.milliseconds(250)

    init(daemon: OpaquePointer, worker: LoopContext) throws(HTTPServerError) {
        self.daemon = daemon
        self.worker = worker
        self.stopRequest = try EventSignal()
    }

    func start() throws(HTTPServerError) {
        var handle = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &handle, nil,
            { context in
                let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<EventLoop>.fromOpaque(context).release()
            throw .cannotCreateEventLoop(reason: String(cString: strerror(result)))
        }
        thread.withLock { $0 = handle }
    }

    /// Asks the loop to return and waits for it. The daemon is left to the caller to stop.
    func stop() {
        let handle = thread.withLock { thread in
            let running = thread
            thread = nil
            return running
        }
        guard let handle else { return }
        stopRequest.signal()
        pthread_join(handle, nil)
    }

    private func run() {
        let epoll = lifecycled_mhd_epoll_fd(daemon)
        var descriptors = [
            pollfd(fd: epoll, events: Int16(POLLIN), revents: 0),
            pollfd(fd: worker.wakeUp.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopRequest.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: worker.departures.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        // The clock is read once per turn, after libmicrohttpd ran: the overdue registrations, the sweep and the
        // next wait all go by that reading.
        var now = MonotonicTime.now
        var nextSweep = now + Self.sweepInterval
        var nextRegistration: MonotonicTime?
        while true {
            let wake = min(nextSweep, nextRegistration ?? nextSweep)
            var waitMilliseconds = now.milliseconds(until: wake)
            var daemonTimeout: UInt64 = 0
            if MHD_get_timeout(daemon, &daemonTimeout) == .YES {
                waitMilliseconds = min(waitMilliseconds, Int32(clamping: daemonTimeout))
            }
            for index in descriptors.indices { descriptors[index].revents = 0 }
            if waitMilliseconds > 0 {
                _ = poll(&descriptors, nfds_t(descriptors.count), waitMilliseconds)
            }
            if descriptors[2].revents != 0 { return }
            if descriptors[1].revents != 0 { worker.wakeUp.drain() }
            if descriptors[3].revents != 0 { worker.departures.answerDeparted() }
            _ = MHD_run(daemon)
            now = MonotonicTime.now
            nextRegistration = worker.departures.registerOverdue(now: now)
            if now >= nextSweep {
                worker.connections.cutOffOverdue(now: now)
                nextSweep = now + Self.sweepInterval
            }
        }
    }
}
