import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleWire
import Locking

/// `text/event-stream` answers: timelines and callbacks as they grow, and the `changes` stream.
extension LifecycleService {
    /// A timeline as an event stream, from `Last-Event-ID` (what a reconnecting `EventSource` sends) or else
    /// `?after=`, then live.
    func openTimelineEventStream(
        _ request: HTTPRequest, query: PageQuery, host: DeviceHost, app: String?,
        filter: @escaping @Sendable (RetainedEntry) -> Bool, _ done: AnswerSink
    ) throws(APIError) {
        try refuseEventStreamsWhileDraining()
        let after = try request.lastEventID() ?? query.after
        let stream = TimelineEventStream(hub: eventStreams, host: host, app: app, after: after, filter: filter)
        stream.access = request.eventStreamAccess
        // Registered under the lock that publishing takes, so no entry published from here on goes unnoticed.
        try host.shared.withLock { shared throws(APIError) in
            guard !shared.gone else { throw .notFound(app.map { "no app \($0)" } ?? "no device \(host.id)") }
            if let app, shared.device.app(app) == nil { throw .notFound("no app \(app)") }
            shared.watchers[ObjectIdentifier(stream)] = (app, stream)
        }
        register(stream)
        done(HTTPResponse(status: 200, headers: EventStreamText.headers, stream: stream.http))
    }

    /// `GET /v1/changes`: the devices and apps of `feed` as a snapshot, then (as an event stream) as they
    /// change; without `Accept: text/event-stream`, the snapshot alone as JSON.
    func openChangeEventStream(
        _ request: HTTPRequest, feed: ChangeFeed, _ done: AnswerSink
    ) throws(APIError) {
        guard request.acceptsEventStream else { return done(.read(feed.snapshot().0, request: request)) }
        try refuseEventStreamsWhileDraining()
        let stream = ChangeEventStream(hub: eventStreams, feed: feed)
        stream.access = request.eventStreamAccess
        // Subscribed before the snapshot is taken (on the first pull), so no change falls between them.
        feed.subscribe(stream)
        register(stream)
        done(HTTPResponse(status: 200, headers: EventStreamText.headers, stream: stream.http))
    }

    /// Adds a stream to the hub, then checks its access against the tokens in force now: tokens replaced
    /// while it opened either see it in the hub or are seen here (`setTokens` swaps, then sweeps).
    private func register(_ stream: LiveEventStream) {
        eventStreams.add(stream)
        if let access = stream.access, !access.allowed(by: self.application.access.withLock { $0 }) {
            stream.end(.revoked)
        }
    }

    private func refuseEventStreamsWhileDraining() throws(APIError) {
        if application.currentPhase == .draining {
            throw .notReady("the daemon is shutting down and opens no more streams; reconnect once it is back")
        }
    }
}

extension HTTPRequest {
    /// What access tokens judge of this request, kept by the stream it opens.
    var eventStreamAccess: EventStreamAccess {
        EventStreamAccess(method: method, scope: Route.match(path).accessScope, authorization: header(.authorization))
    }

    /// Whether the client asked for `text/event-stream` (an `EventSource` always does).
    var acceptsEventStream: Bool {
        guard let accept = header(.accept) else { return false }
        return accept.split(separator: ",").contains { range in
            let type = range.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t") } ?? ""
            return type.lowercased() == "text/event-stream"
        }
    }

    /// `Last-Event-ID`: the `seq` of the last entry the client has; nil when absent or empty.
    func lastEventID() throws(APIError) -> UInt64? {
        guard let text = header(.lastEventID)?.trimmingCharacters(in: " \t"), !text.isEmpty else { return nil }
        guard let value = UInt64(text), value <= PageQuery.maxAfter else {
            throw .invalidField(
                "Last-Event-ID",
                "Last-Event-ID must be a seq: a whole number from 0 to \(PageQuery.maxAfter), not \"\(text)\"")
        }
        return value
    }
}
