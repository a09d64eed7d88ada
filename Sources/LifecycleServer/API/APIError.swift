import HTTPServer
import LifecycleCore

/// Every error the API answers, rendered as one RFC 9457 `application/problem+json` shape.
struct APIError: Error {
    var status: Int
    var code: String
    var title: String
    var detail: String
    /// Extra members where they help: `state`, `allowed`, `validTypes`, `field`, `oldestSeq`, ...
    var extra: [String: JSONValue] = [:]
    var headers: [(name: String, value: String)] = []

    static func notFound(_ detail: String) -> APIError {
        APIError(status: 404, code: "not-found", title: "Not Found", detail: detail)
    }

    static func invalidJSON(_ detail: String) -> APIError {
        APIError(status: 400, code: "invalid-json", title: "Invalid JSON", detail: detail)
    }

    static func invalidField(_ field: String, _ detail: String, allowed: [String] = []) -> APIError {
        var error = APIError(status: 400, code: "invalid-field", title: "Invalid Field", detail: detail)
        error.extra["field"] = .string(field)
        if !allowed.isEmpty { error.extra["allowed"] = .array(allowed.map(JSONValue.string)) }
        return error
    }

    static func unknownEvent(_ type: String, validTypes: [String], detail: String? = nil) -> APIError {
        var error = APIError(
            status: 400, code: "unknown-event", title: "Unknown Event",
            detail: detail ?? "\(type) is not an event type here; validTypes lists those that are")
        error.extra["validTypes"] = .array(validTypes.map(JSONValue.string))
        return error
    }

    static func alreadyExists(_ detail: String) -> APIError {
        APIError(status: 409, code: "already-exists", title: "Already Exists", detail: detail)
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> APIError {
        var error = APIError(
            status: 405, code: "method-not-allowed", title: "Method Not Allowed",
            detail: "\(method) is not allowed here; allowed: \(allowed.joined(separator: ", "))")
        error.extra["allowed"] = .array(allowed.map(JSONValue.string))
        error.headers = [("Allow", allowed.joined(separator: ", "))]
        return error
    }

    /// One event (or a device or app description) larger than `--max-event-bytes`: 413 with the limit.
    static func eventTooLarge(bytes: Int, limit: Int, what: String) -> APIError {
        var error = APIError(
            status: 413, code: "payload-too-large", title: "Payload Too Large",
            detail: "\(what) is \(bytes) bytes of JSON; one may be at most \(limit) bytes (--max-event-bytes)")
        error.extra["limit"] = .number(Double(limit))
        return error
    }

    static func unsupportedMediaType(_ contentType: String) -> APIError {
        APIError(
            status: 415, code: "unsupported-media-type", title: "Unsupported Media Type",
            detail: "the body must be JSON (Content-Type: application/json), not \(contentType)",
            extra: ["allowed": ["application/json"]])
    }

    static func gone(oldestSeq: UInt64) -> APIError {
        APIError(
            status: 410, code: "gone", title: "Gone",
            detail: "entries after this cursor are no longer retained; the oldest seq still held is \(oldestSeq)",
            extra: ["oldestSeq": .number(Double(oldestSeq))])
    }

    /// 410 for a request parked on a namespace that was deleted meanwhile.
    static func namespaceDeleted(_ namespace: String) -> APIError {
        var error = APIError(
            status: 410, code: "gone", title: "Gone",
            detail: "the namespace \(namespace) was deleted with everything in it while this request waited")
        error.extra["namespace"] = .string(namespace)
        return error
    }

    static func idempotencyKeyReused() -> APIError {
        APIError(
            status: 422, code: "idempotency-key-reused", title: "Idempotency Key Reused",
            detail: "this Idempotency-Key was first used with another request body; use a new key for a new request")
    }

    static func notReady(_ detail: String) -> APIError {
        APIError(status: 503, code: "not-ready", title: "Service Unavailable", detail: detail)
    }

    var response: HTTPResponse {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.beginObject()
        writer.field("type")
        writer.string("https://lifecycled.dev/problems/\(code)")
        writer.field("title")
        writer.string(title)
        writer.field("status")
        writer.int(status)
        writer.field("detail")
        writer.string(detail)
        writer.field("code")
        writer.string(code)
        for key in extra.keys.sorted() {
            writer.key(key)
            writer.value(extra[key]!)
        }
        writer.endObject()
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/problem+json")] + headers, body: writer.bytes)
    }
}

extension APIError {
    /// A core rejection as the client sees it: 409, 400 or 404 with what was wrong and what is allowed.
    init(_ rejection: Rejection) {
        switch rejection.code {
        case .invalidTransition:
            self.init(status: 409, code: "invalid-transition", title: "Invalid Transition", detail: rejection.detail)
        case .invalidField:
            self.init(status: 400, code: "invalid-field", title: "Invalid Field", detail: rejection.detail)
        case .notFound:
            self.init(status: 404, code: "not-found", title: "Not Found", detail: rejection.detail)
        case .alreadyExists:
            self.init(status: 409, code: "already-exists", title: "Already Exists", detail: rejection.detail)
        }
        if let sceneState = rejection.sceneState { extra["sceneState"] = .string(sceneState.rawValue) }
        if let lifecycle = rejection.lifecycle { extra["lifecycle"] = .string(lifecycle) }
        if let state = rejection.state { extra["state"] = .string(state.rawValue) }
        if !rejection.allowed.isEmpty { extra["allowed"] = .array(rejection.allowed.map(JSONValue.string)) }
        if let field = rejection.field { extra["field"] = .string(field) }
        if let index = rejection.index { extra["index"] = .number(Double(index)) }
        if let step = rejection.blockedBy { extra["blockedBy"] = EventEncoder.json(step) }
    }
}

extension APIError {
    /// Why a host did not make a change, as the client sees it. Store errors name files and SQL: those
    /// go to the log, never into an answer.
    init(_ error: HostError) {
        switch error {
        case .rejected(let rejection): self.init(rejection)
        case .deviceGone(let id): self = .notFound("device \(id) was deleted; nothing was changed")
        case .idempotencyKeyReused: self = .idempotencyKeyReused()
        case .storeFailed: self = .storeFailed
        case .notDurableYet:
            self = .notReady(
                "the first request with this Idempotency-Key is not durable yet; retry with the same key later")
        }
    }

    /// The store could not make a change durable.
    static let storeFailed = APIError.notReady(
        "the store could not make the change durable, so it was not made; the daemon takes no more changes and "
            + "restarts to recover (GET /readyz says why meanwhile); retry then, with the same Idempotency-Key if any")
}
