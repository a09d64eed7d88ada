package import LifecycleCore

/// How a host's results look to those who read them, given by the layer above: hosting knows no format.
/// What it renders is kept as rendered: each entry once, when its change is committed (reads and streams
/// serve those bytes), and each first answer to an `Idempotency-Key` (its retries get the same bytes).
package protocol HostRendering: Sendable {
    /// The entries as readers are served them, one rendering each, in order.
    func render(_ entries: [TimelineEntry]) -> [RenderedEntry]
    /// The answer to events applied to the device (`applied.app` nil) or to one of its apps.
    func answer(to applied: AppliedEvents) -> [UInt8]
}

/// Events a host applied, as the core left things: the device right after them, the outcome, and its
/// entries as rendered.
package struct AppliedEvents: Sendable {
    package var device: Device
    /// The app the events were posted to; nil for the device's own.
    package var app: String?
    package var outcome: Outcome
    package var entries: [RenderedEntry]

    package init(device: Device, app: String?, outcome: Outcome, entries: [RenderedEntry]) {
        self.device = device
        self.app = app
        self.outcome = outcome
        self.entries = entries
    }
}
