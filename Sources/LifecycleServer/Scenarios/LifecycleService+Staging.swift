import LifecycleApplication
import LifecyclePersistence
import LifecycleStore

/// An import is applied twice: its steps run in a service of its own, in memory (`stagingService`), where
/// nobody else sees them; only once every step has passed is what they made written into the namespace
/// (`Application.install(from:devices:into:authorization:)`), under an `ImportMarker` that makes the writing
/// whole or absent across a crash.
extension LifecycleService {
    /// A service with this one's bounds (`Application.stagingOptions`), in memory, ready: where an import's
    /// steps run. `discard()` it afterwards.
    func stagingService() -> LifecycleService {
        let service = LifecycleService(
            journal: MemoryJournal(), options: application.stagingOptions, logger: logger,
            openAPIDocument: openAPIDocument)
        service.application.setPhase(.ready)
        return service
    }

    /// Stops every device of a staging service (their clocks included) and ends its streams.
    func discard() {
        eventStreams.endAll(.shutdown)
        application.discardAll()
    }
}
