import Dispatch
import LifecycleCore
import LifecycleHosting
import LifecyclePersistence
import LifecycleStore
package import LifecycleWire
import Locking

/// What an import's steps made, written into its namespace at once (`LifecycleService`'s staging service ran
/// them): under an `ImportMarker`, so that the writing is whole or absent across a crash.
extension Application {
    /// Writes `staged` (each device's recorded inputs, in the order they were created) into the namespace
    /// `name`: the marker, the namespace if it is new, every device's recorded inputs, then the marker's
    /// deletion, after which the import is durable. The devices are rebuilt here by replaying those inputs, as
    /// recovery would. `described`: the bytes of their descriptions, held to the memory budget;
    /// `authorization` is the import request's, for the namespace's creator. Throws what stopped it; nothing of
    /// it stays then (nor after a restart).
    package func install(
        _ staged: [(id: String, records: [[UInt8]])], described: Int, into name: String, authorization: String?
    ) throws(APIError) {
        if currentPhase == .draining {
            throw .notReady("the daemon is shutting down and takes no more changes")
        }
        try admitMemory(described, in: name, what: "the import's devices and apps")
        if storeFailure.withLock({ $0 }) != nil { throw .storeFailed }
        if let refusal = storageRefusal() { throw refusal }

        let existing = namespaces.existing(name)
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
        journal.append(
            stream: markerStream, record: marker.record, startsStream: true, durable: noteFailure)
        let space: Namespace
        do throws(APIError) {
            space = try obtainNamespace(
                name, settings: NamespaceSettings(createdAt: now, lastUsedAt: now), method: "POST",
                authorization: { authorization }
            ).space
        } catch {
            journal.deleteStream(markerStream)
            throw error
        }
        // From here on a refusal takes back what was done, and the marker's deletion writes that nothing stays.
        var installed: [DeviceHost] = []
        func takeBack() {
            for host in installed {
                space.registry.removeDevice(host, apps: host.shared.withLock { $0.device.appOrder })
                host.retire { _ in }
                journal.deleteStream(host.stream)
                host.markGone()
            }
            if marker.newNamespace, space.registry.devices == 0 {
                _ = namespaces.remove(space) { journal.deleteStream(space.settingsStream) }
            }
            journal.deleteStream(markerStream)
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
                    journal.append(
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
        journal.deleteStream(markerStream) { result in
            if case .failure(let error) = result { failure.withLock { $0 = $0 ?? error } }
            committed.signal()
        }
        committed.wait()
        if let error = failure.withLock({ $0 }) {
            takeBack()
            if error != .closed { storeDidFail(error) }
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
        recordCounts()
    }

    /// A device of `space` rebuilt from an import's recorded inputs.
    private func rebuild(_ id: String, from records: [[UInt8]], in space: Namespace) throws(APIError) -> DeviceHost {
        do {
            let creation = try JournaledInput(bytes: records[0])
            guard case .device(let configuration, let wall) = creation else {
                throw APIError(.importFailed, "device \(id): its first input is not its creation")
            }
            let host = makeHost(
                try Device(id: id, configuration: configuration), in: space, anchorWall: wall, journaled: true)
            for record in records {
                try host.replay(JournaledInput(bytes: record))
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
        let devices = namespaces.all().reduce(0) { $0 + $1.registry.devices }
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

    /// A random id: the end of a device's, an app's or an import marker's name when the request gives none.
    package static func newID() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}
