public import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds stalls (`--trace-slow-ms`): whatever took `threshold` or longer — an event's answer, a journal
/// commit, a checkpoint, a snapshot's encoding or write — is logged at notice level with its start and end
/// on the monotonic clock (milliseconds since boot, the clock `bench/stalls` times its answers with) and
/// where its time went. Where nothing asked for it the trace is nil, which costs each path one branch.
public struct SlowTrace: Sendable {
    public let thresholdNanoseconds: UInt64
    private let logger: Logger

    public init(milliseconds: Int, logger: Logger) {
        thresholdNanoseconds = UInt64(max(0, milliseconds)) * 1_000_000
        self.logger = logger
    }

    /// The monotonic clock, in nanoseconds.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Logs `what` if it took the threshold or longer; `phases` are named durations in nanoseconds (where
    /// the time went), `detail` anything else that tells the case apart.
    public func note(
        _ what: String, from start: UInt64, to end: UInt64, phases: KeyValuePairs<String, UInt64> = [:],
        detail: KeyValuePairs<String, String> = [:]
    ) {
        guard end &- start >= thresholdNanoseconds else { return }
        var metadata: Logger.Metadata = [:]
        for (name, value) in detail { metadata[name] = .string(value) }
        metadata["trace"] = .string(what)
        metadata["start_ms"] = .string(Self.milliseconds(start))
        metadata["end_ms"] = .string(Self.milliseconds(end))
        metadata["duration_ms"] = .string(Self.milliseconds(end &- start))
        for (name, nanoseconds) in phases { metadata["\(name)_ms"] = .string(Self.milliseconds(nanoseconds)) }
        logger.notice("Slow \(what)", metadata: metadata)
    }

    /// Nanoseconds as milliseconds with three decimals.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let micro = nanoseconds / 1000
        let fraction = String(micro % 1000)
        return "\(micro / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

extension SlowTrace {
    /// Names the calling thread for the system (`/proc/PID/task/TID/comm`, `top -H`, `perf`): at most 15 bytes
    /// are kept. `Thread.name` does not reach the system on Linux; `bench/stalls` tells the store's threads apart
    /// by these names.
    static func nameThisThread(_ name: String) {
        #if os(Linux)
            // pthread_setname_np and prctl do not reach Swift; the thread's own comm file does the same.
            guard let file = fopen("/proc/thread-self/comm", "w") else { return }
            fputs(String(name.utf8.prefix(15)) ?? name, file)
            fclose(file)
        #endif
    }
}
