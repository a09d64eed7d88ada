/// Why an input cannot be applied. A rejected input changes nothing.
public struct Rejection: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        /// The event cannot happen in the current state (HTTP 409).
        case invalidTransition = "invalid-transition"
        /// A field has a value the simulation does not accept (HTTP 400).
        case invalidField = "invalid-field"
        /// A named app, device or task does not exist (HTTP 404).
        case notFound = "not-found"
        /// A client-named thing exists already (HTTP 409): `openScene` naming an existing session.
        case alreadyExists = "already-exists"
    }

    public var code: Code
    /// A sentence for a person.
    public var detail: String
    /// The state of the app the event was for, when there is one.
    public var state: AppState?
    /// What would have been accepted instead.
    public var allowed: [String]
    /// The offending field, for `invalidField`.
    public var field: String?
    /// Index of the event in a batch.
    public var index: Int?
    /// The state of the scene the event named, when there is one.
    public var sceneState: SceneState?
    /// The app's life cycle (`scene` or `appDelegate`), when the event needs scenes.
    public var lifecycle: String?
    /// For a refused `moveTo`: the step of its path that cannot happen.
    public var blockedBy: Event?

    public init(
        code: Code, detail: String, state: AppState? = nil, allowed: [String] = [], field: String? = nil,
        index: Int? = nil
    ) {
        self.code = code
        self.detail = detail
        self.state = state
        self.allowed = allowed
        self.field = field
        self.index = index
    }

    public static func invalidField(_ field: String, _ detail: String, allowed: [String] = []) -> Rejection {
        Rejection(code: .invalidField, detail: detail, allowed: allowed, field: field)
    }

    static func transition(_ detail: String, state: AppState? = nil, allowed: [String] = []) -> Rejection {
        Rejection(code: .invalidTransition, detail: detail, state: state, allowed: allowed)
    }
}
