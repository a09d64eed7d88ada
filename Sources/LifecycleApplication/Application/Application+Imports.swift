package import LifecycleCore
import LifecycleHosting
import LifecyclePersistence
package import LifecycleScenarios
package import LifecycleWire
import Locking

/// What an import may be, whose turn it takes, when it is no longer wanted, and what its steps made. Its steps
/// run in a staging daemon of their own (`stagingOptions`); what they made is then installed (`install`).
extension Application {
    /// The most bytes of inputs one device of an import may record in its staging daemon: what its installation
    /// writes to the journal (and replays).
    package static let stagingRecordingBytes = 16 << 20

    /// The options of the staging daemon an import's steps run in: this daemon's bounds, with no tokens, no
    /// seeds and no access log, and every input of a device recorded (to be written into the journal).
    package var stagingOptions: ServiceOptions {
        var staged = options
        staged.seeds = []
        staged.tokens = nil
        staged.accessLog = false
        staged.storeFailed = {}
        staged.recordingBytes = max(options.recordingBytes, Self.stagingRecordingBytes)
        return staged
    }

    /// The scenario in `document`, if an import can apply it: one that fits the scenario format (the one
    /// check, `ScenarioFormat`: the file's first problem is answered, its path as `field`), and on top what only
    /// an import refuses: a pause (`sleep`), as an import does not wait.
    package static func importable(_ document: JSONValue) throws(APIError) -> Scenario {
        if let problem = ScenarioFormat.problems(in: document).first {
            var error = APIError.invalidField(
                problem.path.isEmpty ? "body" : problem.path,
                "not a scenario of the format (docs/SCENARIOS.md): \(problem)",
                allowed: problem.allowed)
            if let nearest = problem.didYouMean { error.extra["didYouMean"] = .string(nearest) }
            throw error
        }
        if case .array(let steps)? = document["steps"],
            let index = steps.firstIndex(where: { $0["sleep"] != nil })
        {
            throw .invalidField(
                "steps[\(index)].sleep", "steps[\(index)].sleep: an import does not pause: leave out its sleep steps")
        }
        do {
            return try Scenario(file: "import", document: document)
        } catch {
            throw .invalidField("body", "not a scenario of the format (docs/SCENARIOS.md): \(error.description)")
        }
    }

    /// Queues an import into the namespace `name` (`409` while it is frozen; an existing one is kept alive) in
    /// its tenant's turn: the token it came with (`authorization`), or its namespace when tokens are off or it
    /// needs none. `run` runs it when its turn comes, given why it is no longer wanted, asked before each step:
    /// its client went away (`departed`), the daemon is draining, or its token no longer allows it; `dropped`
    /// answers one that was unwanted before it ran. `429` when its tenant or the daemon has as many waiting as
    /// it may.
    package func queueImport(
        into name: String, authorization: String?, departed: @escaping @Sendable () -> Bool,
        run: @escaping @Sendable (_ unwanted: @escaping @Sendable () -> String?) -> Void,
        dropped: @escaping @Sendable (_ why: String) -> Void
    ) throws(APIError) {
        if let space = namespaces.existing(name) {
            if space.settings.frozen { throw .frozen(name) }
            space.touch(at: options.clock.now)
        }
        var tenant = "namespace " + name
        let policy = access.withLock { $0 }
        if policy.table != nil,
            case .allowed(let token?) = policy.decide(
                method: "POST", scope: .namespace(name), authorization: authorization)
        {
            tenant = "token " + token.name
        }
        let unwanted: @Sendable () -> String? = { [weak self] in
            if departed() { return "its client went away" }
            guard let self, self.currentPhase != .draining else { return "the daemon is shutting down" }
            let policy = self.access.withLock { $0 }
            guard policy.table != nil else { return nil }
            guard case .allowed = policy.decide(method: "POST", scope: .namespace(name), authorization: authorization)
            else { return "the token it came with no longer allows it" }
            return nil
        }
        let job = ImportQueue.Job(tenant: tenant, run: { run(unwanted) }, unwanted: unwanted, dropped: dropped)
        do throws(ImportQueue.Refusal) {
            try imports.enqueue(job)
        } catch {
            switch error {
            case .tenantFull(let limit):
                throw .tooManyRequests(
                    "\(tenant) has \(limit) imports waiting already, the most one may; try again once one is answered")
            case .daemonFull(let limit):
                throw .tooManyRequests(
                    "the daemon has \(limit) imports waiting already, the most it holds; try again shortly")
            }
        }
    }

    /// Writes the devices `ids` (in the order they were created) that an import's steps made in `staging`'s
    /// namespace `name` into this daemon's (`install`); a device a later step deleted is not written. Throws
    /// what stopped it; nothing of it stays then (nor after a restart).
    package func install(
        from staging: Application, devices ids: [String], into name: String, authorization: String?
    ) throws(APIError) {
        // What to write: each device's inputs from its creation.
        let stagedRegistry = staging.namespaces.existing(name)?.registry
        var staged: [(id: String, records: [[UInt8]])] = []
        for id in ids {
            guard let host = stagedRegistry?.device(id) else { continue }
            let recording = host.shared.withLock { $0.recording }
            guard recording.complete, recording.count > 0 else {
                throw .importFailed(
                    "device \(id) took more than \(Self.stagingRecordingBytes) bytes of inputs, more than an import "
                        + "may write for one device; nothing of the import stays", step: nil)
            }
            staged.append((id, recording.records))
        }
        let described = ids.reduce(0) { sum, id in
            sum + (stagedRegistry?.device(id)?.shared.withLock { DeviceHost.describedBytes(of: $0.device) } ?? 0)
        }
        try install(staged, described: described, into: name, authorization: authorization)
    }

    /// Stops every device of a staging daemon (their clocks included).
    package func discardAll() {
        for space in namespaces.all() {
            for host in space.registry.removeAll() {
                host.retire { _ in }
                host.markGone()
            }
        }
    }

    /// Whether the namespace `name` holds a device (`app` false) or an app `id` already: an import may not make
    /// one of the same id.
    package func holds(_ id: String, app: Bool, in name: String) -> Bool {
        guard let registry = namespaces.existing(name)?.registry else { return false }
        return app ? registry.app(id) != nil : registry.device(id) != nil
    }

    /// The rules of the steps of an import into the namespace `name` (`ImportSteps`): the ids they create must
    /// be ones the namespace does not hold (`holds`).
    package func importSteps(into name: String) -> ImportSteps {
        ImportSteps(taken: { [weak self] id, app in self?.holds(id, app: app, in: name) ?? false })
    }

    /// Whether a `--seed` scenario is applied to the namespace `name`: once, so a namespace that exists already
    /// (`default`: one that holds a device) is left as it is, and a restart with the same data directory applies
    /// nothing twice.
    package func seedApplies(to name: String) -> Bool {
        guard let existing = namespaces.existing(name) else { return true }
        return existing.isDefault && existing.registry.allDevices().isEmpty
    }
}
