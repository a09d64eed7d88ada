package import LifecycleHosting

/// Options the daemon's command line sets.
public struct ServiceOptions: Sendable {
    /// Entries kept per app timeline (and per device timeline); older ones answer 410.
    public var historyLimit = 10_000
    /// Timeline entries a device produces between two snapshots of it (at least, and at least as many
    /// as the snapshot holds): bounds replay at start-up.
    public var snapshotEvery = 10_000
    /// Journal bytes a device writes between two snapshots (at most, give or take one record), whatever
    /// entries they produced: bounds the journal on disk and the replay at start-up when requests produce
    /// little or nothing (payloads queued for a suspended app).
    public var snapshotBytes = 16 << 20
    /// Whether every answered request is logged at info (`--access-log`).
    public var accessLog = true
    /// The largest event, as JSON, in bytes (each event of a batch, and a device or app description); far
    /// below the request limit, so one request cannot make one huge timeline entry.
    public var maxEventBytes = 64 << 10
    /// The largest request body (the HTTP server's `--max-body-bytes`, which the daemon sets here): an import's
    /// steps are held to it after substitution, and so is a value one saves.
    public var maxBodyBytes = 1 << 20
    /// The most bytes of items one page or list answers; a page stops early with `next` set.
    public var maxAnswerBytes = 4 << 20
    /// The most bytes of timeline entries one device retains (its own timeline and its apps'); the oldest
    /// go first, as with `historyLimit`.
    public var historyBytes = 32 << 20
    /// The most bytes of inputs (journal records) one device records for an export; a device that accepts
    /// more cannot be exported. 0: devices record nothing.
    public var recordingBytes = 1 << 20
    /// The most exports the daemon runs at once (one per namespace); one more answers `429 too-many-requests`.
    public var exportsAtOnce = 4
    /// The most bytes of an export written and not yet taken by its connection: past them its writer waits.
    public var exportBufferBytes = 256 << 10
    /// Scenarios applied at start-up into the namespaces they name, once (`--seed`).
    public var seeds: [SeedScenario] = []
    /// The longest long poll a `wait` may ask for, in seconds; a longer `wait` answers 400.
    public var maxWait = 60.0
    /// Wall-clock seconds a live app's callback waits for its answer over HTTP before it is taken as hung
    /// (LIFECYCLE §13).
    public var liveAnswerTimeout = 10.0
    /// Seconds between the `: keep-alive` comments of every open event stream.
    public var eventStreamKeepAliveSeconds = 15.0
    /// Prometheus exposition text for `GET /metrics`.
    public var metricsText: @Sendable () -> String = { "" }
    /// The access tokens in force; nil: tokens are off (`setTokens` changes them later).
    public var tokens: TokenTable?
    /// Called once, the first time the store fails to make a change durable. From then on every change
    /// answers 503 and `/readyz` says why; reads go on. The daemon exits for its supervisor to restart it.
    public var storeFailed: @Sendable () -> Void = {}
    /// The most devices one namespace may hold; a creation beyond answers `403 quota-exceeded`.
    public var maxDevicesPerNamespace = 10_000
    /// The most apps one namespace may hold.
    public var maxAppsPerNamespace = 100_000
    /// The most namespaces the daemon holds (`default` aside); a creation beyond answers `403 quota-exceeded`.
    public var maxNamespaces = 10_000
    /// The most namespaces one token that is not an admin's may have created and still hold.
    public var maxNamespacesPerToken = 100
    /// The most devices the daemon holds, over every namespace.
    public var maxDevices = 100_000
    /// The most apps the daemon holds, over every namespace.
    public var maxApps = 1_000_000
    /// Bytes clients may make the daemon hold over every device (`MemoryBudget`): entries, recordings and
    /// remembered answers are evicted past it, descriptions refused (`507 memory-budget-exceeded`).
    public var memoryBytes = 1 << 30
    /// The same budget for each namespace.
    public var namespaceMemoryBytes = 512 << 20
    /// Bytes the store may hold on disk (live pages and log); past it, changes but deletions and resets
    /// answer `507 insufficient-storage`. 0: no cap.
    public var maxDataBytes = 0
    /// Bytes the store's file system must keep free; below it, the same `507`.
    public var minFreeDiskBytes = 64 << 20
    /// Each event answered, and each journal commit, checkpoint and snapshot done, in this many milliseconds or
    /// more is logged with where its time went (`SlowTrace`, `--trace-slow-ms`); 0: nothing is.
    public var traceSlowMilliseconds = 0
    /// The wall clock and its timers: what namespace TTLs and their sweeps, `createdAt`/`lastUsedAt`, realtime
    /// device clocks, long polls' waits and the deadline of a replayed answer run on. Tests pass a
    /// `ManualHostClock` and move it themselves.
    package var clock: any HostClock = SystemHostClock()
    /// How often idle namespaces are looked for (and `lastUsedAt` journaled), in seconds.
    public var namespaceSweepInterval = 1.0

    public init() {}
}
