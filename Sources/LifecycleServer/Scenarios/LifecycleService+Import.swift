import Dispatch
import HTTPServer
import LifecycleCore
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire

extension LifecycleService {
    /// Imports run one at a time, on a thread of their own: their steps wait for their answers.
    static let imports = DispatchQueue(label: "lifecycled.import")

    /// `POST .../import?expectations=check|ignore`: applies a scenario's steps in the namespace, all or
    /// nothing (`ImportTransport`). 200 `{"applied", "devices", "apps", "expectations"}`; `409 import-failed`
    /// naming the step that failed, after deleting what the import had created.
    func importScenario(
        _ scope: RequestScope, _ request: HTTPRequest, _ done: Completion
    ) throws(APIError) {
        let checks: Bool
        switch request.query["expectations"] {
        case nil, "check": checks = true
        case "ignore": checks = false
        case let other?:
            throw .invalidField(
                "expectations", "expectations must be check or ignore, not \"\(other)\"", allowed: ["check", "ignore"])
        }
        let scenario = try Self.importable(try request.requiredJSONBody())
        // The steps' paths as written are `default`'s, whichever path named it.
        let namespace = scope.space.isDefault ? nil : scope.space.name
        Self.imports.async { [self] in
            switch runImport(scenario, namespace: namespace, checks: checks) {
            case .success(let report): done(.json(200, report))
            case .failure(let error): done(error.response)
            }
        }
    }

    /// The scenario in `document`, if an import can apply it: one that fits the scenario format (the one
    /// check, `ScenarioFormat`: the file's first problem is answered, its path as `field`), and on top what only
    /// an import refuses: a pause (`sleep`), as an import does not wait.
    static func importable(_ document: JSONValue) throws(APIError) -> Scenario {
        if let problem = ScenarioFormat.problems(in: document).first {
            var error = APIError.invalidField(
                problem.path.isEmpty ? "body" : problem.path, "not a scenario of the format (docs/SCENARIOS.md): \(problem)",
                allowed: problem.allowed)
            if let nearest = problem.didYouMean { error.extra["didYouMean"] = .string(nearest) }
            throw error
        }
        if case .array(let steps)? = document["steps"],
            let index = steps.firstIndex(where: { $0["sleep"] != nil })
        {
            throw .invalidField("steps[\(index)].sleep", "steps[\(index)].sleep: an import does not pause: leave out its sleep steps")
        }
        do {
            return try Scenario(file: "import", document: document)
        } catch {
            throw .invalidField("body", "not a scenario of the format (docs/SCENARIOS.md): \(error.description)")
        }
    }

    /// Runs the steps (on the import queue, or at start-up for a seed) and deletes what they created if one
    /// fails.
    func runImport(_ scenario: Scenario, namespace: String?, checks: Bool) -> Result<JSONValue, APIError> {
        let transport = ImportTransport(service: self, namespace: namespace)
        var runner = ScenarioRunner(transport: transport, namespace: namespace)
        runner.checksExpectations = checks
        do {
            try runner.run(scenario)
        } catch {
            transport.rollBack()
            let mismatch = error as? Mismatch
            var failure = APIError.importFailed(
                "the import stopped at \(mismatch?.description ?? "\(error)"); nothing of it stays", step: mismatch?.step)
            if let lists = mismatch?.lists {
                failure.extra["lists"] = [
                    "expected": .array(lists.expected), "actual": .array(lists.actual), "index": .number(Double(lists.index)),
                ]
            }
            return .failure(failure)
        }
        let (devices, apps) = transport.created
        return .success([
            "applied": .number(Double(scenario.steps.count)), "devices": .array(devices.map(JSONValue.string)),
            "apps": .array(apps.map(JSONValue.string)), "expectations": .string(checks ? "checked" : "ignored"),
        ])
    }
}
