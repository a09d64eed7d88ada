package import LifecycleCore
package import LifecycleStore

/// What a device host reports as it happens, to the layer above (its metrics and its namespace's `changes`
/// feed): the one way up out of hosting. Each call must return quickly and never call back into the host.
package protocol HostObserver: Sendable {
    /// `events` were applied on the device's queue (before they are durable).
    func applied(_ events: [Event])
    /// `count` timeline entries were evicted, by the device's own bounds or the daemon's budget.
    func evicted(entries count: Int)
    /// The journal failed: the host answers with the failure; the daemon stops taking changes.
    func storeFailed(_ error: StoreError)
    /// A change became durable, readers see it and it was answered: `apps` changed (or were added),
    /// `removedApp` is gone. On the store's thread.
    func changed(_ host: DeviceHost, apps: Set<String>, removedApp: String?)
    /// The device was deleted, with the apps it held (not called for a reset).
    func deleted(_ host: DeviceHost, apps: [String])
    /// A snapshot was encoded (compressed) in `nanoseconds` into `bytes`, and handed to the journal.
    func snapshotEncoded(nanoseconds: UInt64, bytes: Int)
}

/// An observer that hears nothing: a host that reports to nobody (tests, a staging import's hosts).
package struct HostObserverNone: HostObserver {
    package init() {}
    package func applied(_ events: [Event]) {}
    package func evicted(entries count: Int) {}
    package func storeFailed(_ error: StoreError) {}
    package func changed(_ host: DeviceHost, apps: Set<String>, removedApp: String?) {}
    package func deleted(_ host: DeviceHost, apps: [String]) {}
    package func snapshotEncoded(nanoseconds: UInt64, bytes: Int) {}
}
