import Dispatch
import LifecycleCore
import LifecycleHosting
import LifecyclePersistence
import LifecycleStore
import Locking
import Logging

/// Why the data directory cannot be recovered: start-up stops with this rather than run on empty state.
public struct RecoveryError: Error, CustomStringConvertible {
    public var description: String
}

extension Application {
    /// Rebuilds every device from the journal (inputs re-applied to the deterministic core), restarts
    /// realtime clocks, which fire the deadlines that passed meanwhile, runs `seeding` (the `--seed` scenarios),
    /// then opens for requests. Returns how many records were replayed.
    package func recover(seeding: () throws -> Void) throws -> Int {
        let started = ContinuousClock.now
        // Imports a crash cut short first: what they wrote is left out, then deleted (`ImportMarker`).
        var abandoned = AbandonedImports()
        try readJournal(including: ImportMarker.isMarker) { stream in
            guard let record = stream.records.first?.bytes else { return }
            do {
                abandoned.add(try ImportMarker(record: record), stream: stream.stream)
            } catch {
                throw RecoveryError(description: "\(stream.stream): the import's marker does not read")
            }
        }
        // Namespaces' settings next, then the devices one stream at a time: start-up holds one device's
        // records at once, whatever the journal's size.
        try readJournal(including: JournalLayout.isSettings) { stream in
            guard case .settings(let name) = JournalLayout.kind(of: stream.stream),
                let record = stream.records.last?.bytes
            else { return }
            guard !abandoned.namespaces.contains(name) else { return }
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
        var gone: [String] = []
        try readJournal(including: { !JournalLayout.isSettings($0) && !ImportMarker.isMarker($0) }) { stream in
            guard case .device(let namespace, let device) = JournalLayout.kind(of: stream.stream) else { return }
            guard !abandoned.streams.contains(stream.stream), let space = namespaces.existing(namespace) else {
                // Left by a namespace whose deletion was cut short: its settings went first, so it is gone.
                gone.append(stream.stream)
                return
            }
            guard let host = try restoreHost(device, in: space, from: stream, replayed: &replayed) else { return }
            guard space.registry.insertDevice(host) else {
                throw RecoveryError(description: "device \(stream.stream) appears twice in the journal")
            }
            for app in host.shared.withLock({ $0.device.appOrder }) { _ = space.registry.reserveApp(app, on: host) }
            host.reportHeld()
            // Restored one device at a time, held to the budget as it goes: start-up holds no more than it.
            if memoryBudget.total > memoryBudget.limit { memoryBudget.trim() }
            hosts.append(host)
        }
        for stream in gone { journal.deleteStream(stream) }
        // The markers go last: a crash before then takes the same imports away again at the next start.
        for name in abandoned.namespaces where namespaces.existing(name) == nil {
            journal.deleteStream(Namespace.settingsPrefix + name)
        }
        for marker in abandoned.markers { journal.deleteStream(marker) }
        if !abandoned.markers.isEmpty {
            logger.info("imports cut short taken away", metadata: ["imports": "\(abandoned.markers.count)"])
        }
        recordCounts()
        // Namespaces whose TTL passed while the daemon was down go before anyone sees them again.
        let now = options.clock.now
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
        try seeding()
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
                let settings = hostSettings(for: space)
                let restored = try DeviceSnapshot(
                    bytes: snapshot.state, historyLimit: options.historyLimit)
                host = DeviceHost(
                    snapshot: restored, stream: stream.stream, clock: options.clock, journal: journal,
                    history: historyBounds, settings: settings)
            } else {
                guard let first = records.popFirst() else { return nil }
                let creation = try JournaledInput(bytes: first.bytes)
                guard case .device(let configuration, let wall) = creation else {
                    throw RecoveryError(description: "device \(stream.stream): the first record is not its creation")
                }
                host = makeHost(
                    try Device(id: id, configuration: configuration), in: space, anchorWall: wall, journaled: true)
                try host.replay(creation)
            }
            for record in records {
                try host.replay(JournaledInput(bytes: record.bytes))
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

extension Application {
    /// The journal's streams one at a time; the store's own failures become a `RecoveryError`.
    fileprivate func readJournal(including: (String) -> Bool, each: (RecoveredStream) throws -> Void) throws {
        do {
            try journal.recover(including: including) { stream in
                do {
                    try each(stream)
                } catch {
                    throw Forwarded(error: error)
                }
            }
        } catch let forwarded as Forwarded {
            throw forwarded.error
        } catch {
            throw RecoveryError(description: "cannot read the journal: \(error)")
        }
    }
}

/// An error of the caller's, carried through the journal's reading unchanged.
private struct Forwarded: Error {
    let error: any Error
}
