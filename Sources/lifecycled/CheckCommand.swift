import ArgumentParser
import Foundation
import LifecycleDaemon
import LifecycleScenarios
import LifecycleServer
import Logging

/// `lifecycled check`: runs scenario files (docs/SCENARIOS.md), in this process on a daemon in memory or
/// against a running one, each scenario in a namespace of its own.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run scenario files (docs/SCENARIOS.md): PASS or FAIL for each, the exit status 0 when all pass.",
        discussion: """
            Without --url the scenarios run in this process on a daemon in memory (no server is needed); with \
            it, against that daemon. Each scenario runs in a fresh namespace of its own (check-<run>-<n>, \
            deleted afterwards) unless --namespace names one for all. A failure names the step and what \
            differed; two lists that differ (an app's callbacks) are shown side by side, the first difference \
            marked.
            """)

    @Option(help: "A running daemon's root URL (e.g. http://127.0.0.1:8080); without it, a daemon in this process.")
    var url: String?

    @Option(help: "Run every scenario in this namespace rather than in one of its own each (`default`: on the unprefixed paths, as written).")
    var namespace: String?

    @Option(help: "Send Authorization: Bearer TOKEN with every request.")
    var token: String?

    @Option(help: "Write the results as JUnit XML to this file.")
    var junit: String?

    @Flag(help: "Name each scenario's namespace as it runs.")
    var verbose = false

    @Argument(help: "Scenario files, or folders of them (their *.json files, in name order).")
    var paths: [String]

    func validate() throws {
        if let url, URL(string: url)?.host == nil { throw ValidationError("--url \(url) is not a URL with a host") }
        if let namespace, !NamespaceName.isValid(namespace) {
            throw ValidationError("--namespace \(namespace) is not a namespace name (\(NamespaceName.pattern))")
        }
    }

    func run() throws {
        let transport: any ScenarioTransport
        var daemon: Daemon?
        if let url {
            transport = URLSessionScenarioTransport(root: url.hasSuffix("/") ? String(url.dropLast()) : url)
        } else {
            var configuration = DaemonConfiguration()
            configuration.store = .memory
            var logger = Logger(label: "lifecycled.check")
            logger.logLevel = .error
            let local = try Daemon(configuration: configuration, logger: logger)
            _ = try local.recover()
            daemon = local
            transport = InProcessScenarioTransport(service: local.service)
        }
        defer { daemon?.stop() }
        let run = String(UUID().uuidString.lowercased().prefix(8))
        var results: [ScenarioResult] = []
        for (index, file) in paths.flatMap(Scenario.files).enumerated() {
            let started = ContinuousClock.now
            let scenario: Scenario
            do {
                scenario = try Scenario(file: file, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            } catch {
                print("FAIL \(file): \(error)")
                throw ExitCode.failure
            }
            let space = namespace ?? "check-\(run)-\(index + 1)"
            if verbose { print("     \(file) in the namespace \(space)") }
            let runner = ScenarioRunner(transport: transport, namespace: space, token: token)
            var failure: Mismatch?
            do {
                try runner.run(scenario)
            } catch let mismatch as Mismatch {
                failure = mismatch
            }
            if namespace == nil {
                _ = try? transport.exchange(
                    method: "DELETE", path: "/v1/namespaces/\(space)",
                    headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [], body: nil)
            }
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let result = ScenarioResult(scenario: scenario, seconds: seconds, failure: failure)
            print(ScenarioReport.line(result))
            results.append(result)
        }
        let failed = results.filter { $0.failure != nil }.count
        print("\(results.count - failed) passed, \(failed) failed")
        if let junit {
            try Data(ScenarioReport.junit(results).utf8).write(to: URL(fileURLWithPath: junit))
        }
        if failed > 0 || results.isEmpty { throw ExitCode.failure }
    }
}
