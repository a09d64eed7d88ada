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
    /// meanwhile stops (`Application.queueImport`).
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
        let scenario = try Application.importable(try request.requiredJSONBody())
        // The steps' paths as written are `default`'s, whichever path named it.
        let namespace = name == NamespaceName.defaultName ? nil : name
        let authorization = request.header(.authorization)
        let departure = request.departure()
        try application.queueImport(
            into: name, authorization: authorization, departed: { departure.hasHappened },
            run: { [self] unwanted in
                switch runImport(
                    scenario, namespace: namespace, checks: checks, authorization: authorization, unwanted: unwanted)
                {
                case .success(let report): done(.json(200, report))
                case .failure(let error): done(error.response)
                }
            },
            dropped: { why in
                done(APIError.importFailed("the import did not run: \(why); nothing of it stays", step: nil).response)
            })
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
            service: staging, namespace: namespace, unwanted: unwanted, steps: application.importSteps(into: name))
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
            try application.install(
                from: staging.application, devices: devices, into: name, authorization: authorization)
        } catch {
            return .failure(error)
        }
        return .success([
            "applied": .number(Double(scenario.steps.count)), "devices": .array(devices.map(JSONValue.string)),
            "apps": .array(apps.map(JSONValue.string)), "expectations": .string(checks ? "checked" : "ignored"),
        ])
    }
}
