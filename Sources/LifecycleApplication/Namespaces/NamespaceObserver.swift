import CoreMetrics
package import LifecycleCore
package import LifecycleHosting
package import LifecycleStore

/// What a namespace's hosts report (`HostObserver`), heard by the daemon's metrics, its store-failure state and
/// the namespace's `changes` feed. The namespace's `StateIndex` is not here: hosts keep it themselves
/// (`HostSettings.stateIndex`).
package struct NamespaceObserver: HostObserver {
    let feed: ChangeFeed
    let metrics: HostMetrics
    /// The daemon stops taking changes (`LifecycleService.storeDidFail`).
    let storeDidFail: @Sendable (StoreError) -> Void

    package init(feed: ChangeFeed, metrics: HostMetrics, storeDidFail: @escaping @Sendable (StoreError) -> Void) {
        self.feed = feed
        self.metrics = metrics
        self.storeDidFail = storeDidFail
    }

    package func applied(_ events: [Event]) { metrics.applied(events) }
    package func evicted(entries count: Int) { metrics.evicted.increment(by: count) }
    package func storeFailed(_ error: StoreError) { storeDidFail(error) }
    package func changed(_ host: DeviceHost, apps: Set<String>, removedApp: String?) {
        feed.changed(host, apps: apps, removedApp: removedApp)
    }
    package func deleted(_ host: DeviceHost, apps: [String]) { feed.deleted(host, apps: apps) }
    package func snapshotEncoded(nanoseconds: UInt64, bytes: Int) {
        metrics.snapshotEncoding.recordNanoseconds(Int64(nanoseconds))
    }
}
