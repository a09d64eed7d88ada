import CoreMetrics
import LifecycleCore
import LifecycleHosting
import LifecycleStore

/// What a namespace's hosts report (`HostObserver`), heard by the daemon's metrics, its store-failure state and
/// the namespace's `changes` feed. The namespace's `StateIndex` is not here: hosts keep it themselves
/// (`HostSettings.stateIndex`).
struct NamespaceObserver: HostObserver {
    let feed: ChangeFeed
    let metrics: ServiceMetrics
    /// The daemon stops taking changes (`LifecycleService.storeDidFail`).
    let storeDidFail: @Sendable (StoreError) -> Void

    func applied(_ events: [Event]) { metrics.applied(events) }
    func evicted(entries count: Int) { metrics.evicted.increment(by: count) }
    func storeFailed(_ error: StoreError) { storeDidFail(error) }
    func changed(_ host: DeviceHost, apps: Set<String>, removedApp: String?) {
        feed.changed(host, apps: apps, removedApp: removedApp)
    }
    func deleted(_ host: DeviceHost, apps: [String]) { feed.deleted(host, apps: apps) }
    func snapshotEncoded(nanoseconds: UInt64, bytes: Int) {
        metrics.snapshotEncoding.recordNanoseconds(Int64(nanoseconds))
    }
}
