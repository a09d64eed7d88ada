import Testing

@testable import LifecycleApplication

@Suite("Namespace metrics")
struct NamespaceMetricsTests {
    @Test("default and the first namespaces seen get labels of their own; later ones count as other")
    func labelsAreCapped() {
        let metrics = NamespaceMetrics(maxLabels: 3)
        #expect(metrics.label("default") == "default")
        metrics.request("team-a")
        metrics.applied(2, in: "team-b")
        metrics.request("team-c")
        metrics.record([("team-d", 1, 1)])
        #expect(metrics.label("team-a") == "team-a")
        #expect(metrics.label("team-b") == "team-b")
        #expect(metrics.label("team-c") == "other")
        #expect(metrics.label("team-d") == "other")
        // A label once given stays: the set of series never grows past the cap, nor changes meaning.
        metrics.request("team-a")
        #expect(metrics.label("team-a") == "team-a")
    }
}
