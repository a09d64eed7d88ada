import CoreMetrics

/// What the store's writer records: each group commit's duration and size, the snapshots it wrote and the
/// write-ahead log's size after each commit. Names and help text: `MetricsCatalogue` (LifecycleServer).
struct StoreMetrics: Sendable {
    let commitDuration = Timer(label: "lifecycled_store_commit_duration_seconds")
    let commitOperations = Recorder(label: "lifecycled_store_commit_operations", aggregate: true)
    let snapshots = Counter(label: "lifecycled_store_snapshots_total")
    let snapshotBytes = Counter(label: "lifecycled_store_snapshot_bytes_total")
    let recordBytes = Counter(label: "lifecycled_store_record_bytes_total")
    let logBytes = Gauge(label: "lifecycled_store_wal_bytes")
}
