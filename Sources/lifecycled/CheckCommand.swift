import ArgumentParser
import Dispatch
import Foundation
import HTTPServer
import LifecycleApplication
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
            Every file is first held to the scenario format (docs/scenario.schema.json, compiled in): a file \
            that does not fit (an unknown or misspelt member, a wrong type, an empty expectation) is reported \
            as INVALID FILE: PATH: what is wrong, PATH a JSON path (steps[2] is the third step), and nothing \
            runs. Without --url the scenarios run in this process on a daemon in memory (no server is needed); \
            with it, against that daemon. Each scenario runs in a fresh namespace of its own \
            (<prefix><run>-<n>, deleted afterwards; --namespace-prefix, check- by default) unless --namespace \
            names one for all. A failure names the step and what differed; two lists that differ (an app's \
            callbacks) are shown side by side, the first difference marked. Exit status: 0 every scenario \
            passed (with --validate-only: every file is valid), 1 a scenario failed or there was none, 2 a file \
            is not a valid scenario (nothing ran), 64 a wrong option.
            """)

    @Option(help: "A running daemon's root URL (e.g. http://127.0.0.1:8080); without it, a daemon in this process.")
    var url: String?

    @Option(
        help:
            "Run every scenario in this namespace rather than in one of its own each (`default`: on the unprefixed paths, as written)."
    )
    var namespace: String?

    @Option(help: "Send Authorization: Bearer TOKEN with every request.")
    var token: String?

    @Option(
        help:
            "How the namespaces made for each scenario begin (<prefix><run>-<n>): one a scoped token may use, e.g. mail-ci- for a token of mail-ci-*."
    )
    var namespacePrefix = "check-"

    @Flag(help: "Only hold the files to the scenario format: VALID or INVALID for each, nothing run.")
    var validateOnly = false

    @Option(help: "Write the results as JUnit XML to this file.")
    var junit: String?

    @Option(help: "How many scenarios run at once (1 to 64); with more than one they are reported when all are done.")
    var parallel = 1

    @Flag(help: "Name each scenario's namespace as it runs.")
    var verbose = false

    @Flag(
        help:
            "After the run, report which app states, transitions, events, callbacks and scene states the scenarios exercised, per OS band of the model, out of those the model can produce there."
    )
    var coverage = false

    @Option(
        name: [.customLong("format"), .customLong("coverage-format")],
        help: "How --coverage and --versions report: text or json (the JSON alone on standard output).")
    var format: String?

    @Flag(
        help:
            "Run each scenario again with a neutral interruption before each events step in turn (lock and unlock, Home and back, a declined call, a memory warning, a system kill and relaunch), where the model takes it; report the expectations that break."
    )
    var perturb = false

    @Option(
        help:
            "Run each scenario on these iOS versions (comma-separated, e.g. 9.0,13.0,17.0; all: one of each band of the model) and show each app's callbacks side by side."
    )
    var versions: String?

    @Argument(help: "Scenario files, or folders of them (their *.json files, in name order).")
    var paths: [String]

    func validate() throws {
        guard (1...64).contains(parallel) else { throw ValidationError("--parallel must be from 1 to 64") }
        if let url, URL(string: url)?.host == nil { throw ValidationError("--url \(url) is not a URL with a host") }
        if let namespace, !NamespaceName.isValid(namespace) {
            throw ValidationError("--namespace \(namespace) is not a namespace name (\(NamespaceName.pattern))")
        }
        // The longest name it makes: the prefix, an 8-character run and a scenario's number.
        if !NamespaceName.isValid("\(namespacePrefix)00000000-9999") {
            throw ValidationError(
                "--namespace-prefix \(namespacePrefix) does not begin namespace names (\(NamespaceName.pattern)): "
                    + "lower-case letters, digits and -, starting with a letter or digit, at most 50 characters")
        }
        try validateModes()
    }

    /// Exit status 2: a file is not a valid scenario, and nothing ran.
    static let invalidFile = ExitCode(2)

    /// The scenarios the paths name, each held to the format; every problem of every file printed (`INVALID`)
    /// and exit status 2 when one does not fit.
    func readScenarios() throws -> [Scenario] {
        var scenarios: [Scenario] = []
        var invalid = 0
        for file in paths.flatMap(Scenario.files) {
            guard let data = FileManager.default.contents(atPath: file) else {
                print("INVALID \(file): cannot read it")
                invalid += 1
                continue
            }
            do {
                let scenario = try ScenarioFormat.scenario(file: file, bytes: Array(data))
                scenarios.append(scenario)
                if validateOnly { print("VALID \(file): \(scenario.name)") }
            } catch {
                for problem in error.problems { print("INVALID \(file): \(problem)") }
                invalid += 1
            }
        }
        if validateOnly { print("\(scenarios.count) valid, \(invalid) invalid") }
        if invalid > 0 {
            if !validateOnly {
                print(
                    invalid == 1
                        ? "1 file is not a valid scenario; nothing ran"
                        : "\(invalid) files are not valid scenarios; nothing ran")
            }
            throw Self.invalidFile
        }
        return scenarios
    }

    func run() throws {
        let scenarios = try readScenarios()
        if validateOnly { return }
        let (transport, daemon) = try makeTransport()
        defer { daemon?.stop() }
        if perturb { return try perturbing(scenarios, through: transport) }
        if versions != nil { return try comparingVersions(scenarios, through: transport) }
        let recorder = coverage ? EventRecorder(transport) : nil
        try checking(scenarios, through: recorder ?? transport, recorder: recorder)
    }

    /// The transport the scenarios run through, and the daemon in this process when there is no --url.
    func makeTransport() throws -> (any ScenarioTransport, Daemon?) {
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
        return (transport, daemon)
    }

    /// What `check` does without --perturb and --versions: each scenario once, PASS or FAIL; with --coverage,
    /// what they exercised.
    private func checking(_ scenarios: [Scenario], through transport: any ScenarioTransport, recorder: EventRecorder?)
        throws
    {
        let report = coverage ? CoverageCollector() : nil
        // With --coverage --format json the JSON alone goes to standard output.
        let toError = format == "json" && coverage
        @Sendable func print(_ line: String) { if toError { printError(line) } else { Swift.print(line) } }
        let run = String(UUID().uuidString.lowercased().prefix(8))
        // Up to --parallel scenarios at once, each in its namespace, on threads of their own (a worker waits for
        // each answer, which the daemon's queues give: Dispatch's threads are not to be held); reported in the
        // order of the files.
        let finished = sideBySide(scenarios.count, threads: parallel) { [self, scenarios] index in
            let space = namespace ?? "\(namespacePrefix)\(run)-\(index + 1)"
            let result = check(
                scenarios[index], in: space, through: transport,
                inspect: report.map { report in { report.add(space, transport, token, recorder) } })
            if parallel == 1 { print(ScenarioReport.line(result)) }
            return result
        }
        if parallel > 1 { finished.forEach { print(ScenarioReport.line($0)) } }
        let failed = finished.filter { $0.failure != nil }.count
        print("\(finished.count - failed) passed, \(failed) failed")
        if let junit {
            try Data(ScenarioReport.junit(finished).utf8).write(to: URL(fileURLWithPath: junit))
        }
        if let report { Swift.print(try report.report(format: format ?? "text")) }
        if failed > 0 || finished.isEmpty { throw ExitCode.failure }
    }

    /// Runs one scenario in `space`, deleting that namespace afterwards when it was the scenario's own.
    func check(
        _ scenario: Scenario, in space: String, through transport: any ScenarioTransport,
        inspect: (() -> Void)? = nil
    ) -> ScenarioResult {
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
        inspect?()
        if namespace == nil {
            _ = try? transport.exchange(
                method: "DELETE", path: "/v1/namespaces/\(space)",
                headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [], body: nil)
        }
        return ScenarioResult(
            scenario: scenario, seconds: (ContinuousClock.now - started) / .seconds(1), failure: failure)
    }
}
