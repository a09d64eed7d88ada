import Dispatch
import Foundation
public import HTTPServer
public import LifecycleApplication
import LifecycleCore
package import LifecycleHosting
public import LifecycleStore
import LifecycleWire
import Locking
public import Logging
import Synchronization

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
    /// Seconds between the `: keep-alive` comments of every open event stream.
    public var streamKeepAliveSeconds = 15.0
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
    /// The wall clock and its timers: what namespace TTLs and their sweeps, `createdAt`/`lastUsedAt`, realtime
    /// device clocks, long polls' waits and the deadline of a replayed answer run on. Tests pass a
    /// `ManualHostClock` and move it themselves.
    package var clock: any HostClock = SystemHostClock()
    /// How often idle namespaces are looked for (and `lastUsedAt` journaled), in seconds.
    public var namespaceSweepInterval = 1.0

    public init() {}
}

/// The REST API (`api/openapi.yaml`) over hosted devices: an `HTTPResponder` for `HTTPServer`.
public final class LifecycleService: HTTPResponder {
    enum Phase: Int {
        case recovering, ready, draining
    }

    let namespaces: NamespaceTable
    /// The devices and apps of the namespace `default`.
    var registry: Registry { namespaces.defaultSpace.registry }
    let journal: any Journal
    let options: ServiceOptions
    let logger: Logger
    /// Whether answered requests are logged: `--access-log` and a logger at info or below (its level is fixed
    /// with it), told once rather than asking the logger's handler on every request.
    let logsAccess: Bool
    let metrics = ServiceMetrics()
    private let phase = Atomic<Int>(Phase.recovering.rawValue)
    let parked = Atomic<Int>(0)
    /// Long polls parked now (what `lifecycled_long_polls_parked` reports).
    package var parkedPolls: Int { parked.load(ordering: .relaxed) }
    /// Timers of parked polls now armed: one per poll, however often it looks again.
    let pollTimers = Atomic<Int>(0)
    /// Requests taken and not yet answered (parked ones included).
    let inFlight = Atomic<Int>(0)
    /// Why changes are refused, once the store has failed: what clients see (the log has the details).
    let storeFailure = Protected<String?>(nil)
    let openAPIDocument: [UInt8]
    let access: Protected<AccessPolicy>
    /// The timer of namespace TTL sweeps, once recovery is done.
    let sweeper = Protected<(any HostTimer)?>(nil)
    /// Every open event stream (each namespace's `changes` feed is in its `Namespace`).
    let streams: StreamHub
    /// What clients make the daemon hold, over every device and per namespace (`--memory-bytes`).
    package let memoryBudget: MemoryBudget
    /// Imports waiting and running, in turns between tenants.
    let imports = ImportQueue()
    /// The exports under way, and the places for more.
    let exports: ExportSlots

    public convenience init(journal: any Journal, options: ServiceOptions, logger: Logger) {
        self.init(journal: journal, options: options, logger: logger, openAPIDocument: nil)
    }

    /// `openAPIDocument`: the spec as served, when another service made it already (an import's staging service).
    init(journal: any Journal, options: ServiceOptions, logger: Logger, openAPIDocument: [UInt8]?) {
        self.journal = journal
        self.options = options
        self.logger = logger
        logsAccess = options.accessLog && logger.logLevel <= .info
        namespaces = NamespaceTable(now: options.clock.now)
        access = Protected(AccessPolicy(table: options.tokens))
        self.openAPIDocument = openAPIDocument ?? OpenAPIDocument.load(maxWait: options.maxWait)
        streams = StreamHub(keepAliveSeconds: options.streamKeepAliveSeconds)
        memoryBudget = MemoryBudget(limit: options.memoryBytes, namespaceLimit: options.namespaceMemoryBytes)
        exports = ExportSlots(limit: options.exportsAtOnce)
    }

    deinit {
        sweeper.withLock { $0?.cancel() }
    }

    /// Event streams open now.
    public var openStreams: Int { streams.count }

    /// Exports under way now.
    public var exportsInFlight: Int { exports.count }

    /// Bytes the exports under way hold in their buffers now (each at most `exportBufferBytes` and one step).
    public var exportBytesInFlight: Int { exports.bytesHeld }

    var currentPhase: Phase { Phase(rawValue: phase.load(ordering: .acquiring))! }

    /// Whether recovery is done and the service is not draining.
    var historyBounds: HistoryBounds {
        HistoryBounds(
            entries: options.historyLimit, bytes: options.historyBytes, recordingBytes: options.recordingBytes)
    }

    public var isReady: Bool { currentPhase == .ready }

    func setPhase(_ next: Phase) { phase.store(next.rawValue, ordering: .releasing) }

    /// Stops taking changes; reads go on. Parked long polls are answered at once.
    public func beginDraining() {
        setPhase(.draining)
        streams.endAll(.shutdown)
        for host in namespaces.all().flatMap({ $0.registry.allDevices() }) {
            // Answered before this returns, so that they answer 200 before the server stops taking answers.
            for poll in host.shared.withLock({ $0.takeAllPolls() }) { poll.wake() }
        }
    }

    /// Waits until every change accepted so far on every device is durable, and the snapshots those changes
    /// brought are handed to the journal too, so the next start replays no more than it must.
    public func finishDraining() {
        let hosts = namespaces.all().flatMap { $0.registry.allDevices() }
        for host in hosts { host.queue.sync {} }
        journal.flush()
        for host in hosts { host.snapshotSaves.wait() }
        journal.flush()
    }

    public func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        respond(to: request, trusted: false, completion: completion)
    }

    /// Answers `request`; `trusted`: one the daemon makes itself (an import's steps, in the namespace its
    /// request was allowed into; a seed), which no token needs to allow. The request goes through
    /// `RequestMiddleware`'s steps (`run`) to the handler its route declares (`Route.declaration`).
    func respond(to request: HTTPRequest, trusted: Bool, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = DispatchTime.now().uptimeNanoseconds
        let match = Route.match(request.path)
        inFlight.add(1, ordering: .relaxed)
        var routed = RoutedRequest(
            done: AnswerSink(
                service: self, started: started, match: match, requestID: RequestID.of(request), send: completion))
        do throws(APIError) {
            try run(&routed, request, match, trusted: trusted)
        } catch {
            routed.done(error.response)
        }
    }

    /// The HTTP layer's refusals answer the same problem documents as the API's own errors.
    public func response(to refusal: HTTPRefusal) -> HTTPResponse {
        APIError(refusal).response
    }
}
