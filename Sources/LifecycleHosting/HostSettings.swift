package import LifecycleStore

/// How a namespace's hosts run: how they render, when they snapshot, the budget they count against, the index
/// readers find their apps through, and the one observer they report to.
package struct HostSettings: Sendable {
    /// How entries and answers look to readers (the API's JSON).
    package var rendering: any HostRendering
    /// Who hears what the hosts do (`HostObserver`).
    package var observer: any HostObserver
    /// The namespace's apps by state: a host updates it itself, once a change is durable and before it is
    /// answered. Nil: the host is found by nobody's index (a test's host).
    package var stateIndex: StateIndex?
    /// Timeline entries a device produces between two snapshots (at least).
    package var snapshotEvery = 10_000
    /// Journal bytes a device writes between two snapshots (at most, give or take one record).
    package var snapshotBytes = 16 << 20
    /// How long a replayed answer waits for its first request's record to be durable.
    package var durableDeadline = 30.0
    /// Wall-clock seconds a live app's callback waits for its answer over HTTP before it hangs
    /// (`--live-answer-timeout`).
    package var liveAnswerTimeout = 10.0
    /// The daemon's budget of what clients make it hold; nil: each device's own bounds only.
    package var memoryBudget: MemoryBudget?
    /// The namespace the device is in, for the budget's count per namespace.
    package var namespace = ""
    /// Logs each event answered, and each snapshot encoded, in its threshold or longer (`--trace-slow-ms`).
    package var trace: SlowTrace?

    package init(rendering: any HostRendering, observer: any HostObserver = HostObserverNone()) {
        self.rendering = rendering
        self.observer = observer
    }
}
