import CoreMetrics
import Dispatch
import LifecycleCore
package import LifecycleHosting
package import LifecycleStore
package import Locking
package import Logging
import Synchronization

/// The daemon's business, with no HTTP in it: every namespace and the hosts of its devices, the memory budget,
/// who may do what, the phase (recovering, ready, draining), and the journal, of which it is the one writer
/// besides the hosts themselves: recovery, the namespaces' settings records, import markers, the expiry sweeps,
/// the resets and deletions. Its methods take and return Swift values and refuse with `APIError`; the HTTP
/// adapter (`LifecycleService`) decodes requests, calls it, and renders what it answers.
package final class Application: Sendable {
    package enum Phase: Int, Sendable {
        case recovering, ready, draining
    }

    package let namespaces: NamespaceTable
    package let journal: any Journal
    package let options: ServiceOptions
    package let logger: Logger
    package let metrics = ApplicationMetrics()
    /// What clients make the daemon hold, over every device and per namespace (`--memory-bytes`).
    package let memoryBudget: MemoryBudget
    /// Imports waiting and running, in turns between tenants.
    package let imports = ImportQueue()
    /// The exports under way, and the places for more (`--exports-at-once`, one per namespace).
    package let exports: ExportSlots
    /// The tokens in force, as the decisions they make.
    package let access: Protected<AccessPolicy>
    /// Why changes are refused, once the store has failed: what clients see (the log has the details).
    package let storeFailure = Protected<String?>(nil)
    private let phase = Atomic<Int>(Phase.recovering.rawValue)
    /// The timer of namespace TTL sweeps, once recovery is done.
    let sweeper = Protected<(any HostTimer)?>(nil)
    /// How entries and answers look to readers: the API's JSON, given from above.
    let rendering: any HostRendering
    package init(journal: any Journal, options: ServiceOptions, logger: Logger, rendering: any HostRendering) {
        self.journal = journal
        self.options = options
        self.logger = logger
        self.rendering = rendering
        namespaces = NamespaceTable(now: options.clock.now)
        access = Protected(AccessPolicy(table: options.tokens))
        exports = ExportSlots(limit: options.exportsAtOnce)
        memoryBudget = MemoryBudget(limit: options.memoryBytes, namespaceLimit: options.namespaceMemoryBytes)
    }

    deinit {
        sweeper.withLock { $0?.cancel() }
    }

    package var currentPhase: Phase { Phase(rawValue: phase.load(ordering: .acquiring))! }

    package func setPhase(_ next: Phase) { phase.store(next.rawValue, ordering: .releasing) }

    /// Whether recovery is done and the daemon is not draining.
    package var isReady: Bool { currentPhase == .ready }

    /// Every device of every namespace.
    package func allHosts() -> [DeviceHost] { namespaces.all().flatMap { $0.registry.allDevices() } }

    /// Waits until every change accepted so far on every device is durable, and the snapshots those changes
    /// brought are handed to the journal too, so the next start replays no more than it must.
    package func finishDraining() {
        let hosts = allHosts()
        for host in hosts { host.queue.sync {} }
        journal.flush()
        for host in hosts { host.snapshotSaves.wait() }
        journal.flush()
    }

    /// Records the device and app gauges: totals over every namespace.
    package func recordCounts() {
        let counts = namespaces.all().map { ($0.name, $0.registry.apps, $0.registry.devices) }
        metrics.devices.record(counts.reduce(0) { $0 + $1.2 })
        metrics.apps.record(counts.reduce(0) { $0 + $1.1 })
        metrics.namespaces.record(counts)
    }
}
