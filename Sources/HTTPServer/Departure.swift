import Synchronization

/// Whether the client of a request has gone while the request was parked (`DepartureWatch`): a responder whose
/// work outlasts a moment (an import) asks for it with `HTTPRequest.departure()` before it answers, and looks
/// at it as it goes, so work nobody waits for stops. A request made in process never departs.
public final class Departure: Sendable {
    private let departed = Atomic<Bool>(false)

    public init() {}

    /// Whether the client has gone.
    public var hasHappened: Bool { departed.load(ordering: .acquiring) }

    func fire() { departed.store(true, ordering: .releasing) }
}
