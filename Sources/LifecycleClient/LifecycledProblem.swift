public import LifecycleOpenAPI

/// A refusal from the daemon, as its problem document (RFC 9457) says it: `code` for programs, `detail` for
/// people, and the members that say what was wrong (`field`, `allowed`, `blockedBy`, ...).
public struct LifecycledProblem: Error, CustomStringConvertible, Sendable {
    /// The HTTP status it came with.
    public var status: Int
    /// The document itself, every member the daemon sent.
    public var document: Components.Schemas.Problem

    public init(status: Int, document: Components.Schemas.Problem) {
        self.status = status
        self.document = document
    }

    /// `invalid-transition`, `not-found`, `invalid-field`, ...
    public var code: String { document.code.value1?.rawValue ?? document.code.value2 ?? "" }
    public var detail: String { document.detail }
    public var description: String { "\(status) \(code): \(detail)" }
}

/// An answer the client did not expect (a status the operation does not declare, say).
public struct UnexpectedAnswer: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var answer: String
    public var description: String { "\(operation): unexpected answer \(answer)" }
}
