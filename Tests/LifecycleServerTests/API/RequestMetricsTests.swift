import Testing

@testable import LifecycleServer

@Suite("Request metrics")
struct RequestMetricsTests {
    private func lines(_ text: String, containing needle: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(needle) }
    }

    @Test("a request counts under its route and status, other statuses under other, and in its duration bucket")
    func countsByRouteStatusAndBucket() {
        let metrics = RequestMetrics()
        metrics.record(.livez, status: 200, nanoseconds: 40_000)  // the first bucket (≤ 50 µs)
        metrics.record(.livez, status: 200, nanoseconds: 50_000)  // still the first: bounds are inclusive
        metrics.record(.livez, status: 418, nanoseconds: 3_000_000)  // ≤ 5 ms
        metrics.record(.livez, status: 999, nanoseconds: 120_000_000_000)  // past every bound: +Inf only
        metrics.record(.metrics, status: 404, nanoseconds: 1)
        let text = metrics.text()
        #expect(text.contains("\nlifecycled_http_requests_total{route=\"livez\",status=\"200\"} 2\n"))
        #expect(text.contains("\nlifecycled_http_requests_total{route=\"livez\",status=\"other\"} 2\n"))
        #expect(text.contains("\nlifecycled_http_requests_total{route=\"livez\",status=\"404\"} 0\n"))
        #expect(text.contains("\nlifecycled_http_requests_total{route=\"metrics\",status=\"404\"} 1\n"))
        let buckets = lines(text, containing: "_bucket{route=\"livez\"")
        #expect(buckets.first == "lifecycled_http_request_duration_seconds_bucket{route=\"livez\",le=\"0.00005\"} 2")
        #expect(buckets.contains("lifecycled_http_request_duration_seconds_bucket{route=\"livez\",le=\"0.002\"} 2"))
        #expect(buckets.contains("lifecycled_http_request_duration_seconds_bucket{route=\"livez\",le=\"0.005\"} 3"))
        #expect(buckets.contains("lifecycled_http_request_duration_seconds_bucket{route=\"livez\",le=\"60.0\"} 3"))
        #expect(buckets.last == "lifecycled_http_request_duration_seconds_bucket{route=\"livez\",le=\"+Inf\"} 4")
        #expect(text.contains("\nlifecycled_http_request_duration_seconds_sum{route=\"livez\"} 120.00309\n"))
        #expect(text.contains("\nlifecycled_http_request_duration_seconds_count{route=\"livez\"} 4\n"))
    }

    @Test("every route has every status and bucket from the start, each family under one TYPE line")
    func everySeriesFromTheStart() {
        let text = RequestMetrics().text()
        let perRoute = RequestMetrics.statuses.count + 1
        #expect(lines(text, containing: "lifecycled_http_requests_total{").count == Route.allCases.count * perRoute)
        let bucketLines = RequestMetrics.durationBounds.count + 1
        #expect(lines(text, containing: "_seconds_bucket{").count == Route.allCases.count * bucketLines)
        #expect(lines(text, containing: "# TYPE lifecycled_http_requests_total counter").count == 1)
        #expect(lines(text, containing: "# TYPE lifecycled_http_request_duration_seconds histogram").count == 1)
        #expect(text.hasSuffix("\n"))
    }

    @Test("seconds are written exactly, in decimal")
    func secondsInDecimal() {
        #expect(RequestMetrics.seconds(0) == "0.0")
        #expect(RequestMetrics.seconds(50_000) == "0.00005")
        #expect(RequestMetrics.seconds(1_000_000_000) == "1.0")
        #expect(RequestMetrics.seconds(12_000_345_678) == "12.000345678")
    }
}
