import Dispatch
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleStore
import LifecycleWire
import Locking

/// An import is applied twice: its steps run in a service of its own, in memory (`stagingService`), where
/// nobody else sees them; only once every step has passed is what they made written into the namespace
/// (`install`), under an `ImportMarker` that makes the writing whole or absent across a crash.
extension LifecycleService {
    /// The most bytes of inputs one device of an import may record in its staging service: what its
    /// installation writes to the journal (and replays).
    static let stagingRecordingBytes = 16 << 20

    /// A service with this one's bounds, in memory, ready, with no tokens and no seeds: where an import's steps
    /// run. `discard()` it afterwards.
    func stagingService() -> LifecycleService {
        var staged = options
        staged.seeds = []
        staged.tokens = nil
        staged.accessLog = false
        staged.storeFailed = {}
        // Every input is needed to write the devices into the journal.
        staged.recordingBytes = max(options.recordingBytes, Self.stagingRecordingBytes)
        let service = LifecycleService(
            journal: MemoryJournal(), options: staged, logger: logger, openAPIDocument: openAPIDocument)
        service.application.setPhase(.ready)
        return service
    }

    /// Stops every device of a staging service (their clocks included) and ends its streams.
    func discard() {
        streams.endAll(.shutdown)
        for space in application.namespaces.all() {
            for host in space.registry.removeAll() {
                host.retire { _ in }
                host.markGone()
            }
        }
    }

    /// Writes the devices `ids` (in the order they were created) that the import made in `staging` into the
    /// namespace `name`: the marker, the namespace if it is new, every device's recorded inputs, then the
    /// marker's deletion, after which the import is durable. The devices are rebuilt here by replaying those
    /// inputs, as recovery would. `authorization` is the import request's, for the namespace's creator.
    /// Throws what stopped it; nothing of it stays then (nor after a restart).
    func install(
        from staging: LifecycleService, devices ids: [String], into name: String, authorization: String?
    ) throws(APIError) {
        // What to write: each device's inputs from its creation.
        let stagedRegistry = staging.application.namespaces.existing(name)?.registry
        var staged: [(id: String, records: [[UInt8]])] = []
        for id in ids {
            // A device a later step deleted is not written.
            guard let host = stagedRegistry?.device(id) else { continue }
            let recording = host.shared.withLock { $0.recording }
            guard recording.complete, !recording.records.isEmpty else {
                throw .importFailed(
                    "device \(id) took more than \(Self.stagingRecordingBytes) bytes of inputs, more than an import "
                        + "may write for one device; nothing of the import stays", step: nil)
            }
            staged.append((id, recording.records))
        }
        let described = ids.reduce(0) { sum, id in
            sum + (stagedRegistry?.device(id)?.shared.withLock { DeviceHost.describedBytes(of: $0.device) } ?? 0)
        }
        try application.install(staged, described: described, into: name, authorization: authorization)
    }
}
