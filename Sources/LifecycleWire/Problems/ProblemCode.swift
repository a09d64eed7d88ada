/// The one list of problem codes the daemon answers, each with its HTTP status and title. Every error it
/// sends, the HTTP layer's refusals included, is an `APIError` with one of these codes, served as
/// `type: https://lifecycled.dev/problems/{code}`. `api/openapi.yaml`'s `Problem.code` lists these codes, generated
/// (scripts/contract); its examples of each are held to them by `ProblemCatalogueTests`.
package enum ProblemCode: String, CaseIterable, Sendable {
    case invalidJSON = "invalid-json"
    case invalidField = "invalid-field"
    case unknownEvent = "unknown-event"
    case invalidPath = "invalid-path"
    case tooManyQueryParameters = "too-many-query-parameters"
    case ambiguousHost = "ambiguous-host"
    case missingHost = "missing-host"
    case ambiguousContentLength = "ambiguous-content-length"
    case unauthorized
    case forbidden
    case crossOriginRequest = "cross-origin-request"
    case quotaExceeded = "quota-exceeded"
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case invalidTransition = "invalid-transition"
    case verificationFailed = "verification-failed"
    case notExportable = "not-exportable"
    case importFailed = "import-failed"
    case namespaceFrozen = "namespace-frozen"
    case alreadyExists = "already-exists"
    case gone
    case payloadTooLarge = "payload-too-large"
    case uriTooLong = "uri-too-long"
    case unsupportedMediaType = "unsupported-media-type"
    case misdirectedRequest = "misdirected-request"
    case idempotencyKeyReused = "idempotency-key-reused"
    case headerFieldsTooLarge = "header-fields-too-large"
    case unsupportedTransferEncoding = "unsupported-transfer-encoding"
    case notReady = "not-ready"
    case insufficientStorage = "insufficient-storage"
    case tooManyRequests = "too-many-requests"
    case memoryBudgetExceeded = "memory-budget-exceeded"

    package var status: Int {
        switch self {
        case .invalidJSON, .invalidField, .unknownEvent, .invalidPath, .tooManyQueryParameters, .ambiguousHost,
            .missingHost, .ambiguousContentLength:
            return 400
        case .unauthorized: return 401
        case .forbidden, .crossOriginRequest, .quotaExceeded: return 403
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .invalidTransition, .alreadyExists, .verificationFailed, .notExportable, .importFailed, .namespaceFrozen:
            return 409
        case .gone: return 410
        case .payloadTooLarge: return 413
        case .uriTooLong: return 414
        case .unsupportedMediaType: return 415
        case .misdirectedRequest: return 421
        case .idempotencyKeyReused: return 422
        case .tooManyRequests: return 429
        case .headerFieldsTooLarge: return 431
        case .unsupportedTransferEncoding: return 501
        case .notReady: return 503
        case .insufficientStorage, .memoryBudgetExceeded: return 507
        }
    }

    /// A short summary of the code, the same for every occurrence (RFC 9457 `title`).
    package var title: String {
        switch self {
        case .invalidJSON: return "Invalid JSON"
        case .invalidField: return "Invalid Field"
        case .unknownEvent: return "Unknown Event"
        case .invalidPath: return "Invalid Path"
        case .tooManyQueryParameters: return "Too Many Query Parameters"
        case .ambiguousHost: return "Ambiguous Host"
        case .missingHost: return "Missing Host"
        case .ambiguousContentLength: return "Ambiguous Content Length"
        case .unauthorized: return "Unauthorized"
        case .forbidden: return "Forbidden"
        case .crossOriginRequest: return "Cross-Origin Request"
        case .quotaExceeded: return "Quota Exceeded"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .invalidTransition: return "Invalid Transition"
        case .verificationFailed: return "Verification Failed"
        case .notExportable: return "Not Exportable"
        case .importFailed: return "Import Failed"
        case .namespaceFrozen: return "Namespace Frozen"
        case .alreadyExists: return "Already Exists"
        case .gone: return "Gone"
        case .payloadTooLarge: return "Payload Too Large"
        case .uriTooLong: return "URI Too Long"
        case .unsupportedMediaType: return "Unsupported Media Type"
        case .misdirectedRequest: return "Misdirected Request"
        case .idempotencyKeyReused: return "Idempotency Key Reused"
        case .headerFieldsTooLarge: return "Header Fields Too Large"
        case .unsupportedTransferEncoding: return "Unsupported Transfer Encoding"
        case .insufficientStorage: return "Insufficient Storage"
        case .tooManyRequests: return "Too Many Requests"
        case .memoryBudgetExceeded: return "Memory Budget Exceeded"
        case .notReady: return "Not Ready"
        }
    }

    /// The answer as prose names it, its status and code: `403 quota-exceeded` (the daemon's `--help`).
    package var answer: String { "\(status) \(rawValue)" }

    /// The problem document's `type`.
    package var typeURI: String { "https://lifecycled.dev/problems/\(rawValue)" }
}
