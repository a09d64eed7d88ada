import Dispatch
import LifecycleCore
import LifecycleHosting
import LifecycleStore
import Locking
import Logging

/// Why the data directory cannot be recovered: start-up stops with this rather than run on empty state.
public struct RecoveryError: Error, CustomStringConvertible {
    public var description: String
}

extension LifecycleService {
    /// Rebuilds every device from the journal (inputs re-applied to the deterministic core), restarts
    /// realtime clocks, which fire the deadlines that passed meanwhile, then opens for requests.
    /// Returns how many records were replayed.
    @discardableResult
    public func recover() throws -> Int {
        let started = ContinuousClock.now
        let streams: [RecoveredStream]
        do {
            streams = try journal.recover()
        } catch {
            throw RecoveryError(description: "cannot read the journal: \(error)")
        }
        let layout = JournalLayout(streams)
        for (name, record) in layout.settings {
            let settings: NamespaceSettings
            do {
                settings = try NamespaceSettings(record: record)
            } catch {
                throw RecoveryError(description: "namespace \(name): its settings record does not read")
            }
            if name == NamespaceName.defaultName {
                namespaces.defaultSpace.replaceSettings(settings)
            } else {
                namespaces.restore(Namespace(name: name, settings: settings))
            }
        }
        var replayed = 0
        var hosts: [DeviceHost] = []
        for (namespace, device, stream) in layout.devices {
            guard let space = namespaces.existing(namespace) else {
                // Left by a namespace whose deletion was cut short: its settings went first, so it is gone.
                journal.deleteStream(stream.stream)
                continue
            }
            guard let host = try restoreHost(device, in: space, from: stream, replayed: &replayed) else { continue }
            guard space.registry.insertDevice(host) else {
                throw RecoveryError(description: "device \(stream.stream) appears twice in the journal")
            }
            for app in host.shared.withLock({ $0.device.appOrder }) { _ = space.registry.reserveApp(app, on: host) }
            hosts.append(host)
        }
        recordCounts()
        // Namespaces whose TTL passed while the daemon was down go before anyone sees them again.
        let now = options.wallClock()
        for space in namespaces.all() where !space.isDefault && space.settings.expired(at: now) {
            let expired = DispatchSemaphore(value: 0)
            empty(space, deleting: true) { _ in expired.signal() }
            expired.wait()
            logger.info("namespace expired", metadata: ["namespace": "\(space.name)"])
            hosts.removeAll { host in host.stream.hasPrefix(space.name + "/") }
        }
        // Realtime clocks catch up with the time the daemon was down, and that is durable, before readiness.
        for host in hosts { host.resumeClock() }
        journal.flush()
        metrics.recovered(records: replayed, seconds: (ContinuousClock.now - started) / .seconds(1))
        setPhase(.ready)
        startExpirySweeps()
        return replayed
    }

    /// Rebuilds one device from its stream; nil for an empty stream.
    private func restoreHost(_ id: String, in space: Namespace, from stream: RecoveredStream, replayed: inout Int)
        throws -> DeviceHost?
    {
        let host: DeviceHost
        var records = stream.records[...]
        do {
            if let snapshot = stream.snapshot {
                let restored = try DeviceSnapshot(bytes: snapshot.state, historyLimit: options.historyLimit)
                host = DeviceHost(
                    snapshot: restored, stream: stream.stream, journal: journal, history: historyBounds,
                    hooks: hostHooks(for: space))
            } else {
                guard let first = records.popFirst() else { return nil }
                let creation = try JournaledInput(bytes: first.bytes, version1: JournalRecordVersion1.entry)
                guard case .device(let configuration, let wall) = creation else {
                    throw RecoveryError(description: "device \(stream.stream): the first record is not its creation")
                }
                host = makeHost(
                    try Device(id: id, configuration: configuration), in: space, anchorWall: wall, journaled: true)
            }
            for record in records {
                try host.replay(JournaledInput(bytes: record.bytes, version1: JournalRecordVersion1.entry))
            }
        } catch let error as RecoveryError {
            throw error
        } catch {
            throw RecoveryError(description: "device \(stream.stream): a journal record does not replay: \(error)")
        }
        replayed += records.count
        return host
    }
}

/// The journal's streams by what they hold: `@namespace/NAME` a namespace's settings, `NAME/ID` a device of
/// the namespace NAME, a bare `ID` a device of `default` (as every release before namespaces wrote them).
struct JournalLayout {
    var settings: [(name: String, record: [UInt8])] = []
    var devices: [(namespace: String, id: String, stream: RecoveredStream)] = []

    init(_ streams: [RecoveredStream]) {
        for stream in streams {
            if stream.stream.hasPrefix(Namespace.settingsPrefix) {
                // One record, appended as the stream's start each time the settings change.
                guard let record = stream.records.last?.bytes else { continue }
                settings.append((String(stream.stream.dropFirst(Namespace.settingsPrefix.count)), record))
            } else if let slash = stream.stream.firstIndex(of: "/") {
                let id = String(stream.stream[stream.stream.index(after: slash)...])
                devices.append((String(stream.stream[..<slash]), id, stream))
            } else {
                devices.append((NamespaceName.defaultName, stream.stream, stream))
            }
        }
    }
}
