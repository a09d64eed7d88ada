import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking
import Synchronization

extension LifecycleService {
    /// A page of a timeline: `{"items": [...], "next": SEQ}`. With `wait`, an empty page is held until an
    /// entry arrives or the wait ends (the connection is parked; no thread waits).
    func readTimeline(
        _ scope: RequestScope, _ request: HTTPRequest, app id: String, callbacksOnly: Bool,
        _ done: AnswerSink
    ) throws(APIError) {
        let host = try appHost(scope, id)
        let query = try request.pageQuery(maxWait: options.maxWait)
        let session = try request.sessionFilter()
        if request.acceptsEventStream {
            let filter: @Sendable (RetainedEntry) -> Bool = { entry in
                (!callbacksOnly || entry.isCallback) && (session.map(entry.isIn(session:)) ?? true)
            }
            return try openTimelineEventStream(request, query: query, host: host, app: id, filter: filter, done)
        }
        switch (callbacksOnly, session) {
        case (true, nil): try page(request, query: query, host: host, app: id, filter: { $0.isCallback }, done)
        case (false, nil): try page(request, query: query, host: host, app: id, filter: { _ in true }, done)
        case (true, let session?):
            try page(
                request, query: query, host: host, app: id, filter: { $0.isCallback && $0.isIn(session: session) }, done
            )
        case (false, let session?):
            try page(request, query: query, host: host, app: id, filter: { $0.isIn(session: session) }, done)
        }
    }

    func readTimeline(
        _ scope: RequestScope, _ request: HTTPRequest, device id: String,
        _ done: AnswerSink
    ) throws(APIError) {
        let query = try request.pageQuery(maxWait: options.maxWait)
        let host = try device(scope, id)
        if request.acceptsEventStream {
            return try openTimelineEventStream(request, query: query, host: host, app: nil, filter: { _ in true }, done)
        }
        try page(request, query: query, host: host, app: nil, filter: { _ in true }, done)
    }

    func readNotifications(
        _ scope: RequestScope, _ request: HTTPRequest, app id: String,
        _ done: AnswerSink
    ) throws(APIError) {
        let host = try appHost(scope, id)
        // The queue has no paging, but a malformed after or limit is still the client's mistake to hear of.
        let query = try request.pageQuery(maxWait: options.maxWait)
        if request.query["delivered"] == "true" {
            try page(request, query: query, host: host, app: id, filter: { $0.isNotification }, done)
            return
        }
        if let delivered = request.query["delivered"], delivered != "false" {
            throw .invalidField("delivered", "delivered must be true or false", allowed: ["true", "false"])
        }
        let json = try host.shared.withLock { shared throws(APIError) -> [UInt8] in
            guard !shared.gone, let app = shared.device.app(id) else { throw .notFound("no app \(id)") }
            var w = JSONWriter(reservingCapacity: 256)
            SnapshotEncoder.queue(app.queuedNotifications, into: &w)
            return w.bytes
        }
        done(.read(json, request: request))
    }

    private func page(
        _ request: HTTPRequest, query: PageQuery, host: DeviceHost, app: String?,
        filter: @escaping @Sendable (RetainedEntry) -> Bool, _ done: AnswerSink
    ) throws(APIError) {
        let after = query.after ?? 0
        pageOrPark(
            request, host: host, app: app, after: after, explicitCursor: query.after != nil,
            limit: query.limit, wait: query.wait > 0 ? query.wait : nil, filter: filter, done)
    }

    /// Answers the page, or parks the request until the host publishes entries for this timeline or its
    /// `wait` (seconds, nil: none) ends. `poll` is the request's parked poll once it has one: looking again
    /// reuses it, and its one timer (on the service's clock), which alone ends the wait.
    private func pageOrPark(
        _ request: HTTPRequest, host: DeviceHost, app: String?, after: UInt64, explicitCursor: Bool, limit: Int,
        wait: Double?, filter: @escaping @Sendable (RetainedEntry) -> Bool,
        poll: Poll? = nil, _ done: AnswerSink
    ) {
        let respond: @Sendable (HTTPResponse) -> Void = { response in
            if let poll { poll.answer { done(response) } } else { done(response) }
        }
        // A poll that answered meanwhile (its timer fired while it looked again) is not parked again.
        let park = wait != nil && poll?.isWaiting ?? true
        var parkedNow: Poll?
        let result: (items: [RetainedEntry], served: ServedEntries)?
        do throws(APIError) {
            result = try application.page(
                of: host, app: app, after: after, explicitCursor: explicitCursor, limit: limit, filter: filter,
                parking: { [self] in
                    guard park else { return nil }
                    if let poll { return poll }
                    let waiting = Poll(
                        clock: options.clock,
                        look: { [self] poll in
                            pageOrPark(
                                request, host: host, app: app, after: after, explicitCursor: explicitCursor,
                                limit: limit, wait: wait, filter: filter, poll: poll, done)
                        },
                        timerArmed: { [self] in pollTimers.add($0, ordering: .relaxed) },
                        answered: { [self] in parked.subtract(1, ordering: .relaxed) })
                    parkedNow = waiting
                    return waiting
                })
        } catch {
            return respond(error.response)
        }
        // Rendered outside the host's lock: its device's queue is not held up by readers.
        if let (items, served) = result {
            var w = JSONWriter(reservingCapacity: 64 + items.reduce(0) { $0 + $1.encodedCount * 3 })
            w.beginObject()
            w.field("items")
            w.beginArray()
            let last = WireRendering.items(items, served: served, maxBytes: options.maxAnswerBytes, into: &w)
            w.endArray()
            w.field("next")
            w.int(Int(last ?? after))
            w.endObject()
            return respond(.read(w.bytes, request: request))
        }
        if let parkedNow, let wait {
            parked.add(1, ordering: .relaxed)
            // At the end of the wait the poll answers with whatever it finds, possibly an empty page.
            parkedNow.arm(after: wait) { [self] poll in
                pageOrPark(
                    request, host: host, app: app, after: after, explicitCursor: explicitCursor, limit: limit,
                    wait: nil, filter: filter, poll: poll, done)
            }
        }
    }
}

extension HTTPRequest {
    /// `?session=`: keep only the entries about that scene session; nil when absent.
    fileprivate func sessionFilter() throws(APIError) -> String? {
        guard let session = query["session"] else { return nil }
        try Identifier.validate(session, field: "session")
        return session
    }
}
