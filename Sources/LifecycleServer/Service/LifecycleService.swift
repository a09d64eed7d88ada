import Dispatch
import Foundation
public import HTTPServer
public import LifecycleApplication
import LifecycleCore
import LifecycleHosting
public import LifecycleStore
import LifecycleWire
import Locking
public import Logging
import Synchronization

/// The REST API (`api/openapi.yaml`) over hosted devices: an `HTTPResponder` for `HTTPServer`.
public final class LifecycleService: HTTPResponder {
    /// The business the API serves: namespaces, hosts, the journal's writing, access, the phase.
    package let application: Application
    /// The devices and apps of the namespace `default`.
    var registry: Registry { application.namespaces.defaultSpace.registry }
    let options: ServiceOptions
    let logger: Logger
    /// Whether answered requests are logged: `--access-log` and a logger at info or below (its level is fixed
    /// with it), told once rather than asking the logger's handler on every request.
    let logsAccess: Bool
    let metrics: ServiceMetrics
    let parked = Atomic<Int>(0)
    /// Long polls parked now (what `lifecycled_long_polls_parked` reports).
    package var parkedPolls: Int { parked.load(ordering: .relaxed) }
    /// Timers of parked polls now armed: one per poll, however often it looks again.
    let pollTimers = Atomic<Int>(0)
    /// Requests taken and not yet answered (parked ones included).
    let inFlight = Atomic<Int>(0)
    let openAPIDocument: [UInt8]
    /// Every open event stream (each namespace's `changes` feed is in its `Namespace`).
    let eventStreams: EventStreamHub

    public convenience init(journal: any Journal, options: ServiceOptions, logger: Logger) {
        self.init(journal: journal, options: options, logger: logger, openAPIDocument: nil)
    }

    /// `openAPIDocument`: the spec as served, when another service made it already (an import's staging service).
    init(journal: any Journal, options: ServiceOptions, logger: Logger, openAPIDocument: [UInt8]?) {
        application = Application(journal: journal, options: options, logger: logger, rendering: WireRendering())
        self.options = options
        self.logger = logger
        logsAccess = options.accessLog && logger.logLevel <= .info
        metrics = ServiceMetrics(application: application.metrics)
        self.openAPIDocument = openAPIDocument ?? OpenAPIDocument.load(maxWait: options.maxWait)
        eventStreams = EventStreamHub(keepAliveSeconds: options.eventStreamKeepAliveSeconds)
    }

    /// Event streams open now.
    public var openEventStreams: Int { eventStreams.count }

    /// Exports under way now.
    public var exportsInFlight: Int { application.exports.count }

    /// Bytes the exports under way hold in their buffers now (each at most `exportBufferBytes` and one step).
    public var exportBytesInFlight: Int { application.exports.bytesHeld }

    /// Whether recovery is done and the service is not draining.
    public var isReady: Bool { application.isReady }

    /// Stops taking changes; reads go on. Parked long polls are answered at once.
    public func beginDraining() {
        application.setPhase(.draining)
        eventStreams.endAll(.shutdown)
        for host in application.allHosts() {
            // A callback waiting for its answer over HTTP hangs at once (LIFECYCLE §13): the input that asked it is
            // journaled before the drain ends, rather than after `--live-answer-timeout`.
            host.pendingCallbacks.abandon(app: nil, deleting: false)
            // Answered before this returns, so that they answer 200 before the server stops taking answers.
            for poll in host.shared.withLock({ $0.takeAllPolls() }) { poll.wake() }
        }
    }

    /// Waits until every change accepted so far on every device is durable (`Application.finishDraining`).
    public func finishDraining() {
        application.finishDraining()
    }

    /// The HTTP layer's refusals answer the same problem documents as the API's own errors.
    public func response(to refusal: HTTPRefusal) -> HTTPResponse {
        APIError(refusal).response
    }
}
