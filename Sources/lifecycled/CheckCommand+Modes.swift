import ArgumentParser
import Foundation
import HTTPServer
import LifecycleCore
import LifecycleDaemon
import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios
import Locking

/// `lifecycled check --coverage`, `--perturb` and `--versions` (docs/TESTING.md): what a suite exercised, what
/// neutral interruptions break, and a scenario on several iOS versions side by side.
extension CheckCommand {
    /// The options that make no sense together, or alone, named with what is allowed.
    func validateModes() throws {
        let modes = [("--coverage", coverage), ("--perturb", perturb), ("--versions", versions != nil)]
            .filter(\.1).map(\.0)
        if modes.count > 1 {
            throw ValidationError("\(modes.joined(separator: " and ")) do not go together: give one of them")
        }
        if let format, !["text", "json"].contains(format) {
            throw ValidationError("--format (--coverage-format) must be text or json, not \(format)")
        }
        if format != nil, !coverage, versions == nil {
            throw ValidationError("--format (--coverage-format) goes with --coverage or --versions")
        }
        guard let mode = modes.first else { return }
        if validateOnly { throw ValidationError("\(mode) runs the scenarios; --validate-only runs none") }
        if namespace != nil {
            throw ValidationError(
                "\(mode) reads or changes each run's namespace: it needs one of its own (--namespace-prefix), not --namespace"
            )
        }
        if mode != "--coverage" {
            if junit != nil { throw ValidationError("\(mode) writes no JUnit XML; --junit goes with a plain check") }
            if parallel != 1 {
                throw ValidationError("\(mode) runs one scenario at a time; --parallel goes with a plain check")
            }
        }
        _ = try listedVersions()
    }

    /// The versions --versions names (`all`: nil, one of each band of the model), spaces left out.
    func listedVersions() throws -> [Version]? {
        guard let versions, versions != "all" else { return nil }
        switch VersionComparison.versions(versions.filter { !$0.isWhitespace }) {
        case .success(let listed): return listed
        case .failure(let problem): throw ValidationError("--versions: \(problem.detail), or all")
        }
    }

    /// `--perturb`: each scenario as written (it must pass), then again with each interruption before each of its
    /// events steps in turn, each run in a namespace of its own; exit status 1 when an expectation broke.
    func perturbing(_ scenarios: [Scenario], through transport: any ScenarioTransport) throws {
        let run = String(UUID().uuidString.lowercased().prefix(8))
        var broke = 0
        var runs = 0
        for (number, scenario) in scenarios.enumerated() {
            let file = scenario.file.split(separator: "/").last.map(String.init) ?? scenario.file
            var count = 0
            func attempt(_ interruption: Interruption?, before: Int) -> (Mismatch?, Bool) {
                count += 1
                let space = "\(namespacePrefix)\(run)-\(number + 1)-\(count)"
                let perturbing = interruption.map {
                    PerturbingTransport(transport, before: before, interruption: $0, token: token)
                }
                var runner = ScenarioRunner(
                    transport: perturbing ?? transport, namespace: space, token: token,
                    limit: DaemonConfiguration().http.maxBodyBytes)
                runner.runToken = "perturb"
                var failure: Mismatch?
                do { try runner.run(scenario) } catch let mismatch as Mismatch { failure = mismatch } catch {
                    failure = Mismatch("\(error)")
                }
                _ = try? transport.exchange(
                    method: "DELETE", path: "/v1/namespaces/\(space)",
                    headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [], body: nil)
                if let found = failure {
                    failure?.description = found.description.replacingOccurrences(
                        of: "/v1/namespaces/\(space)/", with: "/v1/")
                }
                return (failure, perturbing?.applied ?? true)
            }
            if let failure = attempt(nil, before: 0).0 {
                print("FAIL \(file): \(scenario.name)\n     as written: \(failure.description)")
                broke += 1
                continue
            }
            let eventSteps = scenario.steps.indices.filter { index in
                guard let action = scenario.steps[index]["do"]?.stringValue, let space = action.firstIndex(of: " ")
                else { return false }
                return PerturbingTransport.eventsTarget(
                    String(action[..<space]), String(action[action.index(after: space)...])) != nil
            }
            var lines: [String] = []
            var taken = 0
            for (position, step) in eventSteps.enumerated() {
                for interruption in Interruption.allCases {
                    let (failure, applied) = attempt(interruption, before: position + 1)
                    guard applied else { continue }
                    taken += 1
                    runs += 1
                    if let failure {
                        lines.append(
                            "     before step \(step + 1) (\(scenario.steps[step]["do"]?.stringValue ?? "")), "
                                + "\(interruption.rawValue): \(failure.description)")
                    }
                }
            }
            let held = lines.isEmpty
            if !held { broke += 1 }
            print(
                "\(held ? "HELD" : "BROKE") \(file): \(scenario.name) (\(taken) interruption\(taken == 1 ? "" : "s") "
                    + "taken at \(eventSteps.count) events step\(eventSteps.count == 1 ? "" : "s"), "
                    + "\(lines.count) broke an expectation)")
            lines.forEach { print($0) }
        }
        print("\(scenarios.count - broke) held, \(broke) broke (\(runs) perturbed runs)")
        if broke > 0 || scenarios.isEmpty { throw ExitCode.failure }
    }

    /// `--versions`: each scenario on each version (its devices' `iosVersion` replaced), expectations not held
    /// (they state one version's behaviour; statuses are), each app's callbacks side by side, the first
    /// difference marked. Exit status 1 when the callbacks differ or a run stopped at a step.
    func comparingVersions(_ scenarios: [Scenario], through transport: any ScenarioTransport) throws {
        let chosen = try listedVersions() ?? ModelBands.known.bands.map(\.from)
        let run = String(UUID().uuidString.lowercased().prefix(8))
        var differed = false
        var documents: [JSONValue] = []
        for (number, scenario) in scenarios.enumerated() {
            var stopped: [String?] = []
            var callbacks: [[String: [String]]] = []
            for (index, version) in chosen.enumerated() {
                let space = "\(namespacePrefix)\(run)-\(number + 1)-\(index + 1)"
                var runner = ScenarioRunner(
                    transport: transport, namespace: space, token: token,
                    limit: DaemonConfiguration().http.maxBodyBytes)
                runner.runToken = "v"
                runner.checksExpectations = false
                var failure: String?
                do { try runner.run(scenario.onVersion(version.description)) } catch {
                    failure = "\(error)".replacingOccurrences(of: "/v1/namespaces/\(space)/", with: "/v1/")
                }
                stopped.append(failure)
                do {
                    callbacks.append(try NamespaceContents.read(space, through: transport, token: token).callbacks)
                } catch {
                    callbacks.append([:])
                    stopped[index] = stopped[index] ?? "\(error)"
                }
                _ = try? transport.exchange(
                    method: "DELETE", path: "/v1/namespaces/\(space)",
                    headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [], body: nil)
            }
            let comparison = VersionComparison(versions: chosen, stopped: stopped, callbacks: callbacks)
            if comparison.differs { differed = true }
            if format == "json" {
                var document = comparison.json
                document["file"] = .string(scenario.file)
                document["name"] = .string(scenario.name)
                documents.append(.object(document))
            } else {
                print((["VERSIONS \(scenario.file): \(scenario.name)"] + comparison.lines()).joined(separator: "\n"))
            }
        }
        if format == "json" { print(String(decoding: JSONWriter.encode(.array(documents)), as: UTF8.self)) }
        if differed || scenarios.isEmpty { throw ExitCode.failure }
    }
}

/// Remembers the events requests a run posted and the model took (2xx), by namespace: the events coverage counts.
final class EventRecorder: ScenarioTransport, @unchecked Sendable {
    let inner: any ScenarioTransport
    private let posted = Protected<[String: [(path: String, types: [String])]]>([:])

    init(_ inner: any ScenarioTransport) { self.inner = inner }

    func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, headers: [(String, String)], body: [UInt8])
    {
        let answer = try inner.exchange(method: method, path: path, headers: headers, body: body)
        if (200..<300).contains(answer.status), let target = PerturbingTransport.eventsTarget(method, path),
            let body, let document = try? JSONParser.parse(body)
        {
            let types = Coverage.types(of: document)
            posted.withLock { $0[target.root, default: []].append((path, types)) }
        }
        return answer
    }

    /// What was posted in namespace `space`.
    func posted(in space: String) -> [(path: String, types: [String])] {
        posted.withLock { $0["/v1/namespaces/\(space)"] ?? [] }
    }
}

/// What each scenario's namespace held when it ended, gathered as the scenarios run, then reported.
final class CoverageCollector: @unchecked Sendable {
    private let gathered = Protected<[(NamespaceContents, [(path: String, types: [String])])]>([])
    private let problems = Protected<[String]>([])

    func add(_ space: String, _ transport: any ScenarioTransport, _ token: String?, _ recorder: EventRecorder?) {
        do {
            let contents = try NamespaceContents.read(space, through: transport, token: token)
            let posted = recorder?.posted(in: space) ?? []
            gathered.withLock { $0.append((contents, posted)) }
        } catch {
            problems.withLock { $0.append("coverage: cannot read \(space): \(error)") }
        }
    }

    /// What the scenarios gathered exercised, out of the model's bands; the namespaces it could not read named.
    func coverage() -> Coverage {
        var coverage = Coverage(model: ModelBands.known)
        for (contents, posted) in gathered.withLock({ $0 }) { coverage.add(contents, posted: posted) }
        problems.withLock { $0 }.forEach(printError)
        return coverage
    }

    func report(format: String) throws -> String {
        let coverage = coverage()
        return format == "json" ? coverage.json() : coverage.text()
    }
}

extension CheckCommand {
    /// What the scenarios of `paths` exercise, each run once in a namespace of its own on a daemon in this
    /// process, as `--coverage` counts it (`explore --aim`), and how many of them failed.
    static func coverage(of paths: [String]) throws -> (coverage: Coverage, failed: Int) {
        let command = try CheckCommand.parse(paths)
        let scenarios = try command.readScenarios()
        let (inner, daemon) = try command.makeTransport()
        defer { daemon?.stop() }
        let recorder = EventRecorder(inner)
        let collector = CoverageCollector()
        var failed = 0
        let run = String(UUID().uuidString.lowercased().prefix(8))
        for (index, scenario) in scenarios.enumerated() {
            let space = "\(command.namespacePrefix)\(run)-\(index + 1)"
            let result = command.check(
                scenario, in: space, through: recorder,
                inspect: { collector.add(space, recorder, nil, recorder) })
            if result.failure != nil { failed += 1 }
        }
        return (collector.coverage(), failed)
    }
}

/// A line on standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
