package import LifecycleCore

/// How a host's results look to those who read them, given by the layer above: hosting knows no format.
/// Timelines retain the core's entries (`RetainedEntry`) and readers render them; what a host keeps as
/// rendered is each first answer to an `Idempotency-Key` (its retries get the same bytes) and the entries of
/// its latest change as that answer served them (`ServedEntries`), which readers then copy.
package protocol HostRendering: Sendable {
    /// The answer to events applied to the device (`applied.app` nil) or to one of its apps; with
    /// `notingEntries`, also where each of the outcome's entries is in it, as a reader of the timeline would be
    /// served it (`RenderedAnswer.entries`, else empty).
    func answer(to applied: AppliedEvents, notingEntries: Bool) -> RenderedAnswer
}

/// Events a host applied, as the core left things: the device right after them, the outcome and its
/// entries.
package struct AppliedEvents: Sendable {
    package var device: Device
    /// The app the events were posted to; nil for the device's own.
    package var app: String?
    package var outcome: Outcome

    package init(device: Device, app: String?, outcome: Outcome) {
        self.device = device
        self.app = app
        self.outcome = outcome
    }
}
