import LifecycleCore
import LifecycleStore

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
        let streams: [RecoveredStream]
        do {
            streams = try journal.recover()
        } catch {
            throw RecoveryError(description: "cannot read the journal: \(error)")
        }
        var replayed = 0
        var hosts: [DeviceHost] = []
        for stream in streams {
            let host: DeviceHost
            var records = stream.records[...]
            do {
                if let snapshot = stream.snapshot {
                    let restored = try DeviceSnapshot(bytes: snapshot.state, historyLimit: options.historyLimit)
                    host = DeviceHost(
                        snapshot: restored, journal: journal, history: historyBounds, hooks: hostHooks)
                } else {
                    guard let first = records.popFirst() else { continue }
                    guard case .device(let configuration, let wall) = try JournalEntry(bytes: first.bytes) else {
                        throw RecoveryError(
                            description: "device \(stream.stream): the first record is not its creation")
                    }
                    host = makeHost(
                        try Device(id: stream.stream, configuration: configuration), anchorWall: wall, journaled: true)
                }
                for record in records {
                    try host.replay(JournalEntry(bytes: record.bytes))
                }
            } catch let error as RecoveryError {
                throw error
            } catch {
                throw RecoveryError(description: "device \(stream.stream): a journal record does not replay: \(error)")
            }
            replayed += records.count
            guard registry.insertDevice(host) else {
                throw RecoveryError(description: "device \(stream.stream) appears twice in the journal")
            }
            for app in host.shared.withLock({ $0.device.appOrder }) { _ = registry.reserveApp(app, on: host) }
            hosts.append(host)
        }
        metrics.devices.record(registry.devices)
        metrics.apps.record(registry.apps)
        // Realtime clocks catch up with the time the daemon was down, and that is durable, before readiness.
        for host in hosts { host.resumeClock() }
        journal.flush()
        setPhase(.ready)
        return replayed
    }
}
