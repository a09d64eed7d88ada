import Dispatch
import Foundation
import HTTPServer
import LifecycleCore
import LifecycleStore
import Logging
import Synchronization

/// Options the daemon's command line sets.
/// How much history one device keeps: entries per timeline, and bytes for all its timelines together.
struct HistoryBounds: Sendable {
    var entries: Int
    var bytes: Int
}

public struct ServiceOptions: Sendable {
    /// Entries kept per app timeline (and per device timeline); older ones answer 410.
    public var historyLimit = 10_000
    /// Timeline entries a device produces between two snapshots of it (at least, and at least as many
    /// as the snapshot holds): bounds replay at start-up.
    public var snapshotEvery = 10_000
    /// The largest event, as JSON, in bytes (each event of a batch, and a device or app description); far
    /// below the request limit, so one request cannot make one huge timeline entry.
    public var maxEventBytes = 64 << 10
    /// The most bytes of items one page or list answers; a page stops early with `next` set.
    public var maxAnswerBytes = 4 << 20
    /// The most bytes of timeline entries one device retains (its own timeline and its apps'); the oldest
    /// go first, as with `historyLimit`.
    public var historyBytes = 32 << 20
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

    public init() {}
}

/// The REST API (`api/openapi.yaml`) over hosted devices: an `HTTPResponder` for `HTTPServer`.
public final class LifecycleService: HTTPResponder {
    enum Phase: Int {
        case recovering, ready, draining
    }

    let registry = Registry()
    let journal: any Journal
    let options: ServiceOptions
    let logger: Logger
    let metrics = ServiceMetrics()
    private let phase = Atomic<Int>(Phase.recovering.rawValue)
    let parked = Atomic<Int>(0)
    /// Timers of parked polls now armed: one per poll, however often it looks again.
    let pollTimers = Atomic<Int>(0)
    /// Requests taken and not yet answered (parked ones included).
    let inFlight = Atomic<Int>(0)
    /// Device creations wait while a reset is under way, so that none lands in the middle of one.
    let resetGate = Protected(ResetGate())
    /// Why changes are refused, once the store has failed: what clients see (the log has the details).
    let storeFailure = Protected<String?>(nil)
    let openAPIDocument: [UInt8]
    let access: Protected<AccessPolicy>
    /// Every open event stream.
    let streams: StreamHub
    /// Changes to the devices and apps of the namespace `default` (every one, for now), for `/v1/changes`.
    let changeFeed: ChangeFeed

    public init(journal: any Journal, options: ServiceOptions, logger: Logger) {
        self.journal = journal
        self.options = options
        self.logger = logger
        access = Protected(AccessPolicy(table: options.tokens))
        openAPIDocument = OpenAPIDocument.load(maxWait: options.maxWait)
        streams = StreamHub(keepAliveSeconds: options.streamKeepAliveSeconds)
        changeFeed = ChangeFeed(devices: { [registry] in registry.allDevices() })
    }

    /// Event streams open now.
    public var openStreams: Int { streams.count }

    var currentPhase: Phase { Phase(rawValue: phase.load(ordering: .acquiring))! }

    /// Whether recovery is done and the service is not draining.
    var historyBounds: HistoryBounds { HistoryBounds(entries: options.historyLimit, bytes: options.historyBytes) }

    public var isReady: Bool { currentPhase == .ready }

    func setPhase(_ next: Phase) { phase.store(next.rawValue, ordering: .releasing) }

    /// Stops taking changes; reads go on. Parked long polls are answered at once.
    public func beginDraining() {
        setPhase(.draining)
        streams.endAll(.shutdown)
        for host in registry.allDevices() {
            // Answered before this returns, so that they answer 200 before the server stops taking answers.
            for poll in host.shared.withLock({ $0.takeAllPolls() }) { poll.wake() }
        }
    }

    /// Waits until every change accepted so far on every device is durable.
    public func finishDraining() {
        for host in registry.allDevices() { host.queue.sync {} }
        journal.flush()
    }

    public func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = DispatchTime.now().uptimeNanoseconds
        let (route, id) = Route.match(request.path)
        let logs = logger.logLevel <= .debug
        inFlight.add(1, ordering: .relaxed)
        let finish: @Sendable (HTTPResponse) -> Void = { [self] response in
            inFlight.subtract(1, ordering: .relaxed)
            let elapsed = DispatchTime.now().uptimeNanoseconds - started
            metrics.request(route, status: response.status, nanoseconds: elapsed)
            if logs {
                logger.debug(
                    "request",
                    metadata: [
                        "method": "\(request.method)", "path": "\(request.path)", "status": "\(response.status)",
                        "micros": "\(elapsed / 1000)",
                    ])
            }
            completion(response)
        }
        do {
            try dispatch(route, id: id, request, finish)
        } catch {
            finish(error.response)
        }
    }

    private func dispatch(
        _ route: Route, id: String?, _ request: HTTPRequest, _ done: @escaping @Sendable (HTTPResponse) -> Void
    ) throws(APIError) {
        if let refusal = accessRefusal(request, route: route) { throw refusal }
        guard route != .unknown else { throw .notFound("no resource at \(request.path); see /v1/openapi.yaml") }
        guard route.methods.contains(request.method) else {
            throw .methodNotAllowed(request.method, allowed: route.methods)
        }
        if request.path.hasPrefix("/v1/") {
            switch currentPhase {
            case .recovering: throw .notReady("the daemon is recovering its data; try again shortly")
            case .draining where Route.isWrite(request.method):
                throw .notReady("the daemon is shutting down and takes no more changes")
            case .ready, .draining: break
            }
            if Route.isWrite(request.method), storeFailure.withLock({ $0 }) != nil { throw .storeFailed }
        }
        switch (route, request.method) {
        case (.livez, _): done(.json(200, ["status": "ok"]))
        case (.readyz, _): readyz(done)
        case (.metrics, _): done(metricsResponse())
        case (.openapi, _): done(openAPIResponse(request))
        case (.reset, _): try reset(done)
        case (.changes, _): try streamChanges(request, feed: changeFeed, done)
        case (.devices, "GET"): done(try listDevices(request))
        case (.devices, _): try createDevice(request, done)
        case (.device, "GET"): done(try getDevice(id!, request))
        case (.device, _): try deleteDevice(id!, done)
        case (.deviceEvents, _): try postEvents(request, device: id!, done)
        case (.deviceTimeline, _): try readTimeline(request, device: id!, done)
        case (.apps, "GET"): done(try listApps(request))
        case (.apps, _): try createApp(request, done)
        case (.app, "GET"): done(try getApp(id!, request))
        case (.app, _): try deleteApp(id!, done)
        case (.appEvents, _): try postEvents(request, app: id!, done)
        case (.appCallbacks, _): try readTimeline(request, app: id!, callbacksOnly: true, done)
        case (.appTimeline, _): try readTimeline(request, app: id!, callbacksOnly: false, done)
        case (.appNotifications, _): try readNotifications(request, app: id!, done)
        case (.unknown, _): throw .notFound("no resource at \(request.path)")
        }
    }
}
