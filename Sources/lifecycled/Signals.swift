import Foundation

/// Termination signals, blocked in every thread and waited for on one.
struct Signals {
    private var set = sigset_t()

    /// Blocks `signals` in this thread and every thread it starts afterwards.
    static func block(_ signals: [Int32]) -> Signals {
        var result = Signals()
        sigemptyset(&result.set)
        for signal in signals { sigaddset(&result.set, signal) }
        pthread_sigmask(SIG_BLOCK, &result.set, nil)
        return result
    }

    /// Waits for one of the blocked signals and returns it.
    func wait() -> Int32 {
        var set = self.set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}
