import Synchronization

/// `lifecycled_http_requests_total` (by route and status) and `lifecycled_http_request_duration_seconds` (by
/// route), which every request adds to: kept as relaxed atomic counters of our own, all in one allocation, and
/// written as Prometheus text when `/metrics` is read. Recording one request is three atomic additions found by
/// index (no lock, no label, no lookup by string); a metrics library's histogram took a lock per request.
///
/// Each route has every status of `statuses` and `other`, and every bucket, from the start, so a series never
/// appears late. `_count` is the `+Inf` bucket; `_sum` is kept in nanoseconds and written in seconds.
package final class RequestMetrics: @unchecked Sendable {
    /// The statuses with a series of their own; any other counts as `other`.
    static let statuses = [200, 201, 204, 304, 400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429, 500, 503, 507]

    /// The duration histograms' upper bounds: requests take microseconds to milliseconds, long polls up to a
    /// minute. The daemon's other duration histograms (the store's commits, snapshots' encoding) use them too.
    package static let durationBounds: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100),
        .milliseconds(500), .seconds(1), .seconds(5), .seconds(30), .seconds(60),
    ]

    /// The routes in the order of the counters (`allCases` makes a new array at each call).
    private static let routes = Route.allCases
    private static let boundNanoseconds = durationBounds.map {
        UInt64($0.components.seconds) * 1_000_000_000 + UInt64($0.components.attoseconds / 1_000_000_000)
    }
    /// A status's counter within its route's, indexed by status code (100...599); `statuses.count` is `other`.
    private static let statusSlots: [UInt8] = (0..<600).map { UInt8(statuses.firstIndex(of: $0) ?? statuses.count) }

    /// Per route: a counter per status and `other`; a counter per bucket and `+Inf` (each counting the requests
    /// that fell in it, not those below); the nanoseconds' sum.
    private static let perRoute = statuses.count + 1 + durationBounds.count + 1 + 1
    private static let bucketsStart = statuses.count + 1
    private static let sumSlot = perRoute - 1

    private let counters: UnsafeMutablePointer<Atomic<UInt64>>
    private let count: Int

    init() {
        count = Self.routes.count * Self.perRoute
        counters = .allocate(capacity: count)
        for index in 0..<count { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: count)
        counters.deallocate()
    }

    /// Counts one answered request.
    func record(_ route: Route, status: Int, nanoseconds: UInt64) {
        let base = counters + route.index * Self.perRoute
        let statusSlot = (100...599).contains(status) ? Int(Self.statusSlots[status]) : Self.statuses.count
        base[statusSlot].add(1, ordering: .relaxed)
        var bucket = 0
        let bounds = Self.boundNanoseconds
        while bucket < bounds.count, nanoseconds > bounds[bucket] { bucket += 1 }
        base[Self.bucketsStart + bucket].add(1, ordering: .relaxed)
        base[Self.sumSlot].add(nanoseconds, ordering: .relaxed)
    }

    /// The two families in the Prometheus text format, `# TYPE` lines included (`MetricsCatalogue` adds the help).
    func text() -> String {
        var out = "# TYPE lifecycled_http_requests_total counter\n"
        for (routeIndex, route) in Self.routes.enumerated() {
            let base = counters + routeIndex * Self.perRoute
            for (slot, status) in (Self.statuses.map(String.init) + ["other"]).enumerated() {
                let value = base[slot].load(ordering: .relaxed)
                out += "lifecycled_http_requests_total{route=\"\(route.rawValue)\",status=\"\(status)\"} \(value)\n"
            }
        }
        out += "# TYPE lifecycled_http_request_duration_seconds histogram\n"
        let name = "lifecycled_http_request_duration_seconds"
        for (routeIndex, route) in Self.routes.enumerated() {
            let base = counters + routeIndex * Self.perRoute
            var cumulative: UInt64 = 0
            for (bucket, bound) in Self.boundNanoseconds.enumerated() {
                cumulative += base[Self.bucketsStart + bucket].load(ordering: .relaxed)
                out += "\(name)_bucket{route=\"\(route.rawValue)\",le=\"\(Self.seconds(bound))\"} \(cumulative)\n"
            }
            cumulative += base[Self.bucketsStart + Self.boundNanoseconds.count].load(ordering: .relaxed)
            out += "\(name)_bucket{route=\"\(route.rawValue)\",le=\"+Inf\"} \(cumulative)\n"
            out +=
                "\(name)_sum{route=\"\(route.rawValue)\"} \(Self.seconds(base[Self.sumSlot].load(ordering: .relaxed)))\n"
            out += "\(name)_count{route=\"\(route.rawValue)\"} \(cumulative)\n"
        }
        return out
    }

    /// `nanoseconds` as seconds in decimal, exactly: `0.00005`, `1.0`, `12.000345678`.
    static func seconds(_ nanoseconds: UInt64) -> String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = String(nanoseconds % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}
