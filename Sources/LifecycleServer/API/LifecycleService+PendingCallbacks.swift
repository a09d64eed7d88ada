import HTTPServer
import LifecycleApplication
import LifecycleHosting
import LifecycleCore
import LifecycleJSON
import LifecycleWire
import Synchronization

/// `.../apps/{id}/pending-callback`: a live app's callback waiting for its answer over HTTP, and its answer
/// (LIFECYCLE §13).
extension LifecycleService {
    /// `GET`: `{"pending": {...}}`, the callback live app `id` waits on, or `{"pending": null}`. With `wait`, a
    /// request that finds none is held (parked; no thread waits) until the app's device publishes one or the
    /// wait ends.
    func readPendingCallback(
        _ scope: RequestScope, _ request: HTTPRequest, app id: String, _ done: AnswerSink
    ) throws(APIError) {
        let host = try application.liveAppHost(id, in: scope.space)
        let wait = try request.waitQuery(maxWait: options.maxWait)
        pendingOrPark(
            host.pendingCallbacks, app: id, wait: wait > 0 ? wait : nil, ifNoneMatch: request.header(.ifNoneMatch),
            poll: nil, done)
    }

    /// `POST`: `{"callback": ID, ...answer}` hands the answer to the callback; `200 {"answered": ID}`.
    func answerPendingCallback(
        _ scope: RequestScope, _ request: HTTPRequest, app id: String, _ done: AnswerSink
    ) throws(APIError) {
        let (callback, answer) = try CallbackAnswerRequest.posted(try request.requiredJSONBody())
        try application.answerCallback(callback, with: answer, app: id, in: scope.space)
        done(.json(200, .object(["answered": .number(Double(callback))])))
    }

    /// Answers the pending callback, or parks the request until one is published, the app's deletion begins or
    /// `wait` (nil: none) ends. The answer carries its `ETag`; one the client's `If-None-Match` names answers
    /// `304`, as every read's. An app being deleted answers `404`: it asks nothing more.
    private func pendingOrPark(
        _ board: PendingCallbacks, app: String, wait: Double?, ifNoneMatch: String?, poll: Poll?, _ done: AnswerSink
    ) {
        let respond: @Sendable (PendingCallbacks.Pending?) -> Void = { pending in
            var w = JSONWriter(reservingCapacity: 512)
            w.beginObject()
            w.field("pending")
            if let pending {
                LiveAnswerEncoder.pending(id: pending.id, pending.callback, deadline: pending.deadline, into: &w)
            } else {
                w.null()
            }
            w.endObject()
            let tag = HTTPResponse.etag(of: w.bytes)
            let response =
                if let ifNoneMatch, ETag.matches(ifNoneMatch, tag) {
                    HTTPResponse(status: 304, headers: HTTPResponse.notModifiedFields(etag: tag))
                } else {
                    HTTPResponse(status: 200, headers: HTTPResponse.readFields(etag: tag), body: w.bytes)
                }
            if let poll { poll.answer { done(response) } } else { done(response) }
        }
        let park = wait != nil && poll?.isWaiting ?? true
        var parkedNow: Poll?
        let look = board.look(app: app) { [self] in
            guard park else { return nil }
            if let poll { return poll }
            let waiting = Poll(
                clock: options.clock,
                look: { [self] poll in
                    pendingOrPark(board, app: app, wait: wait, ifNoneMatch: ifNoneMatch, poll: poll, done)
                },
                timerArmed: { [self] in pollTimers.add($0, ordering: .relaxed) },
                answered: { [self] in parked.subtract(1, ordering: .relaxed) })
            parkedNow = waiting
            return waiting
        }
        switch look {
        case .deleting:
            let gone = APIError.notFound("no app \(app): it is being deleted").response
            if let poll { poll.answer { done(gone) } } else { done(gone) }
            return
        case .pending(let pending): return respond(pending)
        case .none(let parked): if !parked { return respond(nil) }
        }
        if let parkedNow, let wait {
            parked.add(1, ordering: .relaxed)
            parkedNow.arm(after: wait) { [self] poll in
                pendingOrPark(board, app: app, wait: nil, ifNoneMatch: ifNoneMatch, poll: poll, done)
            }
        }
    }
}
