package import LifecycleCore
import LifecycleJSON

/// The one problem type: every error the daemon answers, the HTTP layer's refusals included
/// (`APIError(_: HTTPRefusal)`), is one of these, rendered by `response` as RFC 9457
/// `application/problem+json`. Its `code` is from the one list (`ProblemCode`), which gives the status,
/// the title and the `type`; `detail` is a sentence, lower-case and without a final period, naming what
/// was wrong and what is allowed.
package struct APIError: Error {
    package var code: ProblemCode
    package var detail: String
    /// Extra members where they help: `state`, `allowed`, `validTypes`, `field`, `oldestSeq`, `limit`, ...
    package var extra: [String: JSONValue] = [:]
    package var headers: [(name: String, value: String)] = []

    package init(
        _ code: ProblemCode, _ detail: String, extra: [String: JSONValue] = [:],
        headers: [(name: String, value: String)] = []
    ) {
        self.code = code
        self.detail = detail
        self.extra = extra
        self.headers = headers
    }

    package var status: Int { code.status }

    package static func notFound(_ detail: String) -> APIError {
        APIError(.notFound, detail)
    }

    package static func invalidJSON(_ detail: String) -> APIError {
        APIError(.invalidJSON, detail)
    }

    package static func invalidField(_ field: String, _ detail: String, allowed: [String] = []) -> APIError {
        var error = APIError(.invalidField, detail)
        error.extra["field"] = .string(field)
        if !allowed.isEmpty { error.extra["allowed"] = .array(allowed.map(JSONValue.string)) }
        return error
    }

    static func unknownEvent(_ type: String, validTypes: [String], detail: String? = nil) -> APIError {
        var error = APIError(
            .unknownEvent, detail ?? "\(type) is not an event type here; validTypes lists those that are")
        error.extra["validTypes"] = .array(validTypes.map(JSONValue.string))
        return detail == nil ? error.suggesting(for: type, among: validTypes) : error
    }

    /// `typed` is not one of `known`: when one of them is close (`NearestName`), it is named at the end of the
    /// detail ("; did you mean launch?") and as `didYouMean`.
    package func suggesting(for typed: String, among known: [String]) -> APIError {
        guard let nearest = NearestName.among(known, to: typed) else { return self }
        var error = self
        error.detail += "; did you mean \(nearest)?"
        error.extra["didYouMean"] = .string(nearest)
        return error
    }

    package static func alreadyExists(_ detail: String) -> APIError {
        APIError(.alreadyExists, detail)
    }

    package static func methodNotAllowed(_ method: String, allowed: [String]) -> APIError {
        var error = APIError(
            .methodNotAllowed, "\(method) is not allowed here; allowed: \(allowed.joined(separator: ", "))")
        error.extra["allowed"] = .array(allowed.map(JSONValue.string))
        error.headers = [("Allow", allowed.joined(separator: ", "))]
        return error
    }

    /// One event (or a device or app description) larger than `--max-event-bytes`: 413 with the limit.
    package static func eventTooLarge(bytes: Int, limit: Int, what: String) -> APIError {
        var error = APIError(
            .payloadTooLarge, "\(what) is \(bytes) bytes of JSON; one may be at most \(limit) bytes (--max-event-bytes)"
        )
        error.extra["limit"] = .number(Double(limit))
        return error
    }

    package static func unsupportedMediaType(_ contentType: String) -> APIError {
        APIError(
            .unsupportedMediaType, "the body must be JSON (Content-Type: application/json), not \(contentType)",
            extra: ["allowed": ["application/json"]])
    }

    package static func gone(oldestSeq: UInt64) -> APIError {
        APIError(
            .gone, "entries after this cursor are no longer retained; the oldest seq still held is \(oldestSeq)",
            extra: ["oldestSeq": .number(Double(oldestSeq))])
    }

    /// 410 for a request parked on a namespace that was deleted meanwhile.
    package static func namespaceDeleted(_ namespace: String) -> APIError {
        var error = APIError(
            .gone, "the namespace \(namespace) was deleted with everything in it while this request waited")
        error.extra["namespace"] = .string(namespace)
        return error
    }

    /// 409 for `verify`: the app's callbacks are not the ones expected; `extra` says where they first differ.
    /// 409: a device of the export keeps no recording from its creation.
    package static func notExportable(_ detail: String, devices: [String]) -> APIError {
        APIError(.notExportable, detail, extra: ["devices": .array(devices.map(JSONValue.string))])
    }

    /// 409: an import stopped at `step` (1-based); nothing of it stays.
    package static func importFailed(_ detail: String, step: Int?) -> APIError {
        APIError(.importFailed, detail, extra: step.map { ["step": .number(Double($0))] } ?? [:])
    }

    /// 429: too many of this kind of request wait already; `detail` says whose and when to try again.
    package static func tooManyRequests(_ detail: String) -> APIError {
        APIError(.tooManyRequests, detail)
    }

    package static func verificationFailed(_ detail: String, extra: [String: JSONValue]) -> APIError {
        APIError(.verificationFailed, detail, extra: extra)
    }

    package static func idempotencyKeyReused() -> APIError {
        APIError(
            .idempotencyKeyReused,
            "this Idempotency-Key was first used with another request body; use a new key for a new request")
    }

    /// The problem document (RFC 9457): `type`, `title`, `status`, `detail`, `code`, then the extra members
    /// in key order.
    package var document: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.beginObject()
        writer.field("type")
        writer.string(code.typeURI)
        writer.field("title")
        writer.string(code.title)
        writer.field("status")
        writer.int(status)
        writer.field("detail")
        writer.string(detail)
        writer.field("code")
        writer.string(code.rawValue)
        for key in extra.keys.sorted() {
            writer.key(key)
            writer.value(extra[key]!)
        }
        writer.endObject()
        return writer.bytes
    }

    package static func notReady(_ detail: String) -> APIError {
        APIError(.notReady, detail)
    }
}

extension APIError {
    /// A core rejection as the client sees it: 409, 400 or 404 with what was wrong and what is allowed.
    package init(_ rejection: Rejection) {
        switch rejection.code {
        case .invalidTransition:
            self.init(.invalidTransition, rejection.detail)
        case .invalidField:
            self.init(.invalidField, rejection.detail)
        case .notFound:
            self.init(.notFound, rejection.detail)
        case .alreadyExists:
            self.init(.alreadyExists, rejection.detail)
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
