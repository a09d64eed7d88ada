import ArgumentParser
import Dispatch
import Foundation
import HTTPServer
import LifecycleDaemon
import LifecycleScenarios
import LifecycleServer
import Locking
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

    @Option(help: "How many scenarios run at once (1 to 64); with more than one they are reported when all are done.")
    var parallel = 1

    @Flag(help: "Name each scenario's namespace as it runs.")
    var verbose = false

    @Argument(help: "Scenario files, or folders of them (their *.json files, in name order).")
    var paths: [String]

    func validate() throws {
        guard (1...64).contains(parallel) else { throw ValidationError("--parallel must be from 1 to 64") }
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
        var scenarios: [Scenario] = []
        for file in paths.flatMap(Scenario.files) {
            do {
                scenarios.append(try Scenario(file: file, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: file)))))
            } catch {
                print("FAIL \(file): \(error)")
                throw ExitCode.failure
            }
        }
        // Up to --parallel scenarios at once, each in its namespace, on threads of their own (a worker waits for
        // each answer, which the daemon's queues give: Dispatch's threads are not to be held); reported in the
        // order of the files.
        let results = Protected<[ScenarioResult?]>(Array(repeating: nil, count: scenarios.count))
        let next = Protected(0)
        let done = DispatchGroup()
        for _ in 0..<min(parallel, scenarios.count) {
            done.enter()
            Thread { [self, scenarios] in
                defer { done.leave() }
                while true {
                    let index = next.withLock { index -> Int in
                        defer { index += 1 }
                        return index
                    }
                    guard index < scenarios.count else { return }
                    let result = check(scenarios[index], in: namespace ?? "check-\(run)-\(index + 1)", through: transport)
                    results.withLock { $0[index] = result }
                    if parallel == 1 { print(ScenarioReport.line(result)) }
                }
            }.start()
        }
        done.wait()
        let finished = results.withLock { $0.compactMap { $0 } }
        if parallel > 1 { finished.forEach { print(ScenarioReport.line($0)) } }
        let failed = finished.filter { $0.failure != nil }.count
        print("\(finished.count - failed) passed, \(failed) failed")
        if let junit {
            try Data(ScenarioReport.junit(finished).utf8).write(to: URL(fileURLWithPath: junit))
        }
        if failed > 0 || finished.isEmpty { throw ExitCode.failure }
    }

    /// Runs one scenario in `space`, deleting that namespace afterwards when it was the scenario's own.
    private func check(_ scenario: Scenario, in space: String, through transport: any ScenarioTransport) -> ScenarioResult {
        let started = ContinuousClock.now
        if verbose { print("     \(scenario.file) in the namespace \(space)") }
        var failure: Mismatch?
        do {
            try ScenarioRunner(
                transport: transport, namespace: space, token: token, limit: DaemonConfiguration().http.maxBodyBytes
            ).run(scenario)
        } catch let mismatch as Mismatch {
            failure = mismatch
        } catch {
            failure = Mismatch("\(error)")
        }
        if namespace == nil {
            _ = try? transport.exchange(
                method: "DELETE", path: "/v1/namespaces/\(space)",
                headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [], body: nil)
        }
        return ScenarioResult(scenario: scenario, seconds: (ContinuousClock.now - started) / .seconds(1), failure: failure)
    }
}
