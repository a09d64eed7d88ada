#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A reading of the system's monotonic clock, in nanoseconds: what the event loop's deadlines (a connection's
/// head, a parked socket's registration, the sweep) are kept and compared in. Read once per loop turn and once
/// per answer, it costs a `clock_gettime` and integer arithmetic, where `ContinuousClock.Instant` works in
/// 128-bit durations.
struct MonotonicTime: Comparable, Sendable {
    let nanoseconds: UInt64

    static var now: MonotonicTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTime(nanoseconds: UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec))
    }

    static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `self` moved on by `interval`.
    static func + (lhs: MonotonicTime, interval: Interval) -> MonotonicTime {
        MonotonicTime(nanoseconds: lhs.nanoseconds &+ interval.nanoseconds)
    }

    /// Whole milliseconds from `self` to `later`, rounded up (a wait that ends at or after it); 0 when it passed.
    func milliseconds(until later: MonotonicTime) -> Int32 {
        guard later > self else { return 0 }
        return Int32(clamping: (later.nanoseconds - nanoseconds + 999_999) / 1_000_000)
    }

    /// A length of time on this clock.
    struct Interval: Sendable {
        let nanoseconds: UInt64

        static func milliseconds(_ count: Int) -> Interval { Interval(nanoseconds: UInt64(max(0, count)) * 1_000_000) }
        static func seconds(_ count: Int) -> Interval { Interval(nanoseconds: UInt64(max(0, count)) * 1_000_000_000) }
    }
}
