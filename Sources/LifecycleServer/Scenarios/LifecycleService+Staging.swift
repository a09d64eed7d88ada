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
        if application.currentPhase == .draining {
            throw .notReady("the daemon is shutting down and takes no more changes")
        }
        let described = ids.reduce(0) { sum, id in
            sum + (stagedRegistry?.device(id)?.shared.withLock { DeviceHost.describedBytes(of: $0.device) } ?? 0)
        }
        try application.admitMemory(described, in: name, what: "the import's devices and apps")
        if application.storeFailure.withLock({ $0 }) != nil { throw .storeFailed }
        if let refusal = application.storageRefusal() { throw refusal }

        let existing = application.namespaces.existing(name)
        if let existing, existing.settings.frozen { throw .frozen(name) }
        let now = options.clock.now
        let marker = ImportMarker(
            namespace: name, newNamespace: existing == nil,
            streams: staged.map { name == NamespaceName.defaultName ? $0.id : name + "/" + $0.id })
        let markerStream = ImportMarker.prefix + Self.newID()
        let failure = Protected<StoreError?>(nil)
        let noteFailure: @Sendable (Result<UInt64, StoreError>) -> Void = { result in
            if case .failure(let error) = result { failure.withLock { $0 = $0 ?? error } }
        }
        application.journal.append(
            stream: markerStream, record: marker.record, startsStream: true, durable: noteFailure)
        let space: Namespace
        do throws(APIError) {
            space = try application.obtainNamespace(
                name, settings: NamespaceSettings(createdAt: now, lastUsedAt: now), method: "POST",
                authorization: { authorization }
            ).space
        } catch {
            application.journal.deleteStream(markerStream)
            throw error
        }
        // From here on a refusal takes back what was done, and the marker's deletion writes that nothing stays.
        var installed: [DeviceHost] = []
        func takeBack() {
            for host in installed {
                space.registry.removeDevice(host, apps: host.shared.withLock { $0.device.appOrder })
                host.retire { _ in }
                application.journal.deleteStream(host.stream)
                host.markGone()
            }
            if marker.newNamespace, space.registry.devices == 0 {
                _ = application.namespaces.remove(space) { application.journal.deleteStream(space.settingsStream) }
            }
            application.journal.deleteStream(markerStream)
        }
        guard space.writes.enter() else {
            takeBack()
            throw .frozen(name)
        }
        defer { space.writes.leave() }
        // Rebuilt before anyone sees them, then registered and written while no reset of the namespace runs.
        var rebuilt: [(host: DeviceHost, records: [[UInt8]])] = []
        do throws(APIError) {
            for (id, records) in staged { rebuilt.append((try rebuild(id, from: records, in: space), records)) }
        } catch {
            takeBack()
            throw error
        }
        let hosts = rebuilt
        let admitted = DispatchSemaphore(value: 0)
        let refusal = Protected<APIError?>(nil)
        let registered = Protected<[DeviceHost]>([])
        space.admitCreation { [self] alive in
            defer { admitted.signal() }
            guard alive else {
                return refusal.withLock {
                    $0 = .notFound("the namespace \(name) was deleted; nothing of the import stays")
                }
            }
            do throws(APIError) {
                try register(hosts.map(\.host), in: space)
            } catch {
                return refusal.withLock { $0 = error }
            }
            registered.withLock { $0 = hosts.map(\.host) }
            for (host, records) in hosts {
                for (index, record) in records.enumerated() {
                    application.journal.append(
                        stream: host.stream, record: record, startsStream: index == 0, durable: noteFailure)
                }
            }
        }
        admitted.wait()
        installed = registered.withLock { $0 }
        if let error = refusal.withLock({ $0 }) {
            takeBack()
            throw error
        }
        // The commit: once the marker's deletion is durable, so is everything written before it.
        let committed = DispatchSemaphore(value: 0)
        application.journal.deleteStream(markerStream) { result in
            if case .failure(let error) = result { failure.withLock { $0 = $0 ?? error } }
            committed.signal()
        }
        committed.wait()
        if let error = failure.withLock({ $0 }) {
            takeBack()
            if error != .closed { application.storeDidFail(error) }
            throw .importFailed(
                "the store could not write the import (\(error.clientReason)); nothing of it stays", step: nil)
        }
        for host in installed {
            let apps = Set(host.shared.withLock { $0.device.appOrder })
            host.reportHeld()
            host.resumeClock()
            space.stateIndex.update(host, apps: apps, removedApp: nil)
            space.changeFeed.changed(host, apps: apps, removedApp: nil)
        }
        application.recordCounts()
    }

    /// A device of `space` rebuilt from an import's recorded inputs.
    private func rebuild(_ id: String, from records: [[UInt8]], in space: Namespace) throws(APIError) -> DeviceHost {
        do {
            let creation = try JournaledInput(bytes: records[0], version1: JournalRecordVersion1.entry)
            guard case .device(let configuration, let wall) = creation else {
                throw APIError(.importFailed, "device \(id): its first input is not its creation")
            }
            let host = application.makeHost(
                try Device(id: id, configuration: configuration), in: space, anchorWall: wall, journaled: true)
            for record in records {
                try host.replay(JournaledInput(bytes: record, version1: JournalRecordVersion1.entry))
            }
            return host
        } catch let error as APIError {
            throw error
        } catch {
            // The inputs were accepted once by the same core: they replay. This answers rather than trapping.
            throw APIError(.importFailed, "device \(id): an input of the import does not replay: \(error)")
        }
    }

    /// Puts rebuilt devices and their apps in the registry all at once, within the daemon's and the namespace's
    /// bounds.
    private func register(_ hosts: [DeviceHost], in space: Namespace) throws(APIError) {
        let devices = application.namespaces.all().reduce(0) { $0 + $1.registry.devices }
        if devices + hosts.count > options.maxDevices {
            throw .daemonQuotaExceeded(
                "the import's \(hosts.count) devices would pass the \(options.maxDevices) the daemon may hold over every "
                    + "namespace (--max-devices); nothing of the import stays", limit: options.maxDevices)
        }
        let entries = hosts.map { host in (host: host, apps: host.shared.withLock { $0.device.appOrder }) }
        do throws(Registry.InsertionRefusal) {
            try space.registry.insertAll(
                entries, deviceLimit: options.maxDevicesPerNamespace, appLimit: options.maxAppsPerNamespace)
        } catch {
            switch error {
            case .taken(let device, let id):
                throw .alreadyExists("\(device ? "device" : "app") \(id) already exists in the namespace \(space.name)")
            case .full(let device, let limit):
                throw .quotaExceeded(
                    device ? "devices" : "apps", namespace: space.name, limit: limit,
                    option: device ? "--max-devices-per-namespace" : "--max-apps-per-namespace")
            }
        }
    }
}
