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

    /// The scenario in `document`, if an import can apply it: the format's members with their types (as
    /// `docs/scenario.schema.json` and the spec's `Scenario` give them), and steps that are requests (a pause is
    /// refused), at least one.
    static func importable(_ document: JSONValue) throws(APIError) -> Scenario {
        guard case .object(let members) = document else {
            throw .invalidField("body", "the body is a scenario (docs/SCENARIOS.md): a JSON object")
        }
        let known = ["$schema", "format", "name", "source", "namespace", "steps"]
        for key in members.keys.sorted() where !known.contains(key) {
            throw .invalidField(key, "\(key) is not a member of a scenario", allowed: known)
        }
        for key in ["$schema", "name", "source", "namespace"] {
            if let value = members[key], value.stringValue == nil {
                throw .invalidField(key, "\(key) is a string, not \(value.typeName)")
            }
        }
        guard members["name"]?.stringValue?.isEmpty == false else {
            throw .invalidField("name", "a scenario has a name: a string of at least one character")
        }
        guard case .array(let steps)? = members["steps"], !steps.isEmpty else {
            throw .invalidField("steps", "a scenario has steps: a list of at least one")
        }
        for (index, step) in steps.enumerated() { try checkStep(step, at: "steps[\(index)]") }
        do {
            return try Scenario(file: "import", document: document)
        } catch {
            throw .invalidField("body", "the body is a scenario (docs/SCENARIOS.md): \(error.description)")
        }
    }

    /// The members a step of an import may have, and what each holds.
    private static func checkStep(_ step: JSONValue, at path: String) throws(APIError) {
        guard case .object(let members) = step else { throw .invalidField(path, "each step is an object") }
        if members["sleep"] != nil {
            throw .invalidField("\(path).sleep", "an import does not pause: leave out its sleep steps")
        }
        let known = ["do", "body", "rawBody", "status", "headers", "expect", "pluck", "save", "saveHeaders", "expectHeaders"]
        for key in members.keys.sorted() where !known.contains(key) {
            throw .invalidField("\(path).\(key)", "\(key) is not a member of a step", allowed: known)
        }
        let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        guard let action = members["do"]?.stringValue, let space = action.firstIndex(of: " "),
            methods.contains(String(action[..<space])), action[action.index(after: space)...].hasPrefix("/")
        else {
            throw .invalidField(
                "\(path).do", "each step names its request: \"do\": \"METHOD /path\"", allowed: methods)
        }
        if let raw = members["rawBody"], raw.stringValue == nil { throw .invalidField("\(path).rawBody", "rawBody is a string") }
        if let pluck = members["pluck"], pluck.stringValue == nil { throw .invalidField("\(path).pluck", "pluck is a string") }
        if let status = members["status"] {
            guard let number = status.numberValue, number.rounded() == number, (100...599).contains(number) else {
                throw .invalidField("\(path).status", "status is an HTTP status, a whole number from 100 to 599")
            }
        }
        for key in ["headers", "save", "saveHeaders"] {
            guard let value = members[key] else { continue }
            guard case .object(let pairs) = value, pairs.values.allSatisfy({ $0.stringValue != nil }) else {
                throw .invalidField("\(path).\(key)", "\(key) is an object of strings")
            }
        }
        if let value = members["expectHeaders"] {
            guard case .object = value else {
                throw .invalidField("\(path).expectHeaders", "expectHeaders is an object of patterns")
            }
        }
    }

    /// Runs the steps (on the import queue, or at start-up for a seed) and deletes what they created if one
    /// fails.
    func runImport(_ scenario: Scenario, namespace: String?, checks: Bool) -> Result<JSONValue, APIError> {
        let transport = ImportTransport(service: self, namespace: namespace)
        var runner = ScenarioRunner(transport: transport, namespace: namespace, limit: options.maxBodyBytes)
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
