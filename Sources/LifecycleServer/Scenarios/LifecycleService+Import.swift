import Dispatch
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire
import Locking

extension LifecycleService {
    /// `POST .../import?expectations=check|ignore`: applies a scenario's steps in the namespace, all or
    /// nothing: the steps run in a staging service of their own, and what they made is written into the
    /// namespace only once every step passed (`install`). 200 `{"applied", "devices", "apps", "expectations"}`;
    /// `409 import-failed` naming the step that failed, and nothing stays, not even the namespace when the import
    /// was to create it. Imports wait their turn in `imports`; one whose client leaves or whose token is revoked
    /// meanwhile stops.
    func importScenario(_ request: HTTPRequest, _ match: Route.Match, _ done: AnswerSink) throws(APIError) {
        let name = match.namespace ?? NamespaceName.defaultName
        let checks: Bool
        switch request.query["expectations"] {
        case nil, "check": checks = true
        case "ignore": checks = false
        case let other?:
            throw .invalidField(
                "expectations", "expectations must be check or ignore, not \"\(other)\"", allowed: ["check", "ignore"])
        }
        let scenario = try Self.importable(try request.requiredJSONBody())
        if let space = application.namespaces.existing(name) {
            if space.settings.frozen { throw .frozen(name) }
            space.touch(at: options.clock.now)
        }
        // The steps' paths as written are `default`'s, whichever path named it.
        let namespace = name == NamespaceName.defaultName ? nil : name
        let authorization = request.header(.authorization)
        let departure = request.departure()
        var tenant = "namespace " + name
        let policy = application.access.withLock { $0 }
        if policy.table != nil,
            case .allowed(let token?) = policy.decide(
                method: "POST", scope: .namespace(name), authorization: authorization)
        {
            tenant = "token " + token.name
        }
        let unwanted: @Sendable () -> String? = { [weak self] in
            if departure.hasHappened { return "its client went away" }
            guard let self, self.application.currentPhase != .draining else { return "the daemon is shutting down" }
            let policy = self.application.access.withLock { $0 }
            guard policy.table != nil else { return nil }
            guard case .allowed = policy.decide(method: "POST", scope: .namespace(name), authorization: authorization)
            else { return "the token it came with no longer allows it" }
            return nil
        }
        let job = ImportQueue.Job(
            tenant: tenant,
            run: { [self] in
                switch runImport(
                    scenario, namespace: namespace, checks: checks, authorization: authorization, unwanted: unwanted)
                {
                case .success(let report): done(.json(200, report))
                case .failure(let error): done(error.response)
                }
            },
            unwanted: unwanted,
            dropped: { why in
                done(APIError.importFailed("the import did not run: \(why); nothing of it stays", step: nil).response)
            })
        do throws(ImportQueue.Refusal) {
            try application.imports.enqueue(job)
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

    /// The scenario in `document`, if an import can apply it: one that fits the scenario format (the one
    /// check, `ScenarioFormat`: the file's first problem is answered, its path as `field`), and on top what only
    /// an import refuses: a pause (`sleep`), as an import does not wait.
    static func importable(_ document: JSONValue) throws(APIError) -> Scenario {
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

    /// Runs the steps in a staging service, then writes what they made into the namespace (nil: `default`)
    /// whole (`install`); on an import thread, or at start-up for a seed. Nothing of a failed import stays.
    func runImport(
        _ scenario: Scenario, namespace: String?, checks: Bool, authorization: String? = nil,
        unwanted: @escaping @Sendable () -> String? = { nil }
    ) -> Result<JSONValue, APIError> {
        let name = namespace ?? NamespaceName.defaultName
        let staging = stagingService()
        defer { staging.discard() }
        let transport = ImportTransport(
            service: staging, namespace: namespace, unwanted: unwanted,
            taken: { [weak self] id, app in
                guard let registry = self?.application.namespaces.existing(name)?.registry else { return false }
                return app ? registry.app(id) != nil : registry.device(id) != nil
            })
        var runner = ScenarioRunner(transport: transport, namespace: namespace, limit: options.maxBodyBytes)
        runner.checksExpectations = checks
        do {
            try runner.run(scenario)
        } catch {
            let mismatch = error as? Mismatch
            var failure = APIError.importFailed(
                "the import stopped at \(mismatch?.description ?? "\(error)"); nothing of it stays",
                step: mismatch?.step)
            if let lists = mismatch?.lists {
                failure.extra["lists"] = [
                    "expected": .array(lists.expected), "actual": .array(lists.actual),
                    "index": .number(Double(lists.index)),
                ]
            }
            return .failure(failure)
        }
        let (devices, apps) = transport.created
        do throws(APIError) {
            if let why = unwanted() {
                throw .importFailed("the import stopped: \(why); nothing of it stays", step: nil)
            }
            try install(from: staging, devices: devices, into: name, authorization: authorization)
        } catch {
            return .failure(error)
        }
        return .success([
            "applied": .number(Double(scenario.steps.count)), "devices": .array(devices.map(JSONValue.string)),
            "apps": .array(apps.map(JSONValue.string)), "expectations": .string(checks ? "checked" : "ignored"),
        ])
    }
}
