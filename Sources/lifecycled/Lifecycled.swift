import ArgumentParser
import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleDaemon
import LifecycleServer
import LifecycleWire
import Logging
import Metrics
import Prometheus

/// The daemon: simulated iOS devices and apps behind a JSON REST API.
@main
struct Lifecycled: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifecycled",
        abstract: "Simulates iOS apps' lifecycles behind a JSON REST API.",
        usage: """
            lifecycled [<options>]
              lifecycled token new --name <name> --role <role> [--namespace <namespace> ...]
              lifecycled check [--url <url>] [--namespace <namespace> | --namespace-prefix <prefix>] [--token <token>] [--validate-only] [--junit <file>] [--coverage | --perturb | --versions <list>|all] [--format text|json] <paths> ...
              lifecycled explore --scenario <file> [--property <file> ...] [--seed <n>] [--walks <n>] [--steps <n>] [--versions <list>] [--url <url> [--namespace <namespace>] [--token <token>] | --aim <paths> ...] [--out <file>|<folder>]
            """,
        discussion: """
            Every setting can also come from the environment (LIFECYCLED_<KEY>, a list comma-separated) or from \
            a JSON file of keys and values (--config FILE, or LIFECYCLED_CONFIG); the command line wins over \
            the environment, which wins over the file. A value that does not fit its setting stops the start \
            (exit 64), naming the setting, its source and value, and what is allowed; so does a key of the file \
            that is no setting's, or a LIFECYCLED_ variable close to a setting's, naming the one probably meant. \
            Keys (and variables): \
            \(Setting.listing).
            """,
        version: "lifecycled \(BuildInfo.version) (revision \(BuildInfo.revision))",
        subcommands: [TokenCommand.self, CheckCommand.self, ExploreCommand.self])

    /// Every default below is the library's (`DaemonConfiguration()`), written once there; an option not
    /// given is nil, so the environment and the file can say it.
    private static let defaults = DaemonConfiguration()

    @Option(help: "A JSON file of settings (keys as listed above); the environment and the flags win over it.")
    var config: String?

    @Option(help: "Address to listen on. (default: \(defaults.http.host))")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one (the log line says which). (default: \(defaults.http.port))")
    var port: Int?

    @Option(help: "Directory of the durable store (SQLite, WAL). (default: \(defaultDirectory))")
    var dataDir: String?

    @Flag(help: "Keep everything in memory: nothing survives a restart.")
    var inMemory = false

    @Option(
        help: "HTTP threads, each an event loop with its own connections (1 to 64). (default: \(defaults.http.threads))"
    )
    var threads: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. (default: info)")
    var logLevel: String?

    @Option(help: "Log lines as text, or as JSON (one object per line): text, json. (default: text)")
    var logFormat: String?

    @Option(
        help:
            "One info line per answered request (client, method, route, status, duration, bytes, token name, request id): on, off. (default: on)"
    )
    var accessLog: String?

    @Option(
        help: "Entries kept per app timeline; older cursors answer 410. (default: \(defaults.service.historyLimit))")
    var historyLimit: Int?

    @Option(
        help:
            "Timeline entries a device produces between two snapshots of it (bounds start-up replay). (default: \(defaults.service.snapshotEvery))"
    )
    var snapshotEvery: Int?

    @Option(help: "Largest request body in bytes; larger ones answer 413. (default: \(defaults.http.maxBodyBytes))")
    var maxBodyBytes: Int?

    @Option(
        name: .customLong("tokens"),
        help: "Access tokens file (JSON, tokens by their SHA-256); re-read on SIGHUP. Without it, no token is needed.")
    var tokensOption: String?

    @Flag(help: "Listen on a non-loopback --host without --tokens: anyone who reaches the port may do anything.")
    var allowUnauthenticated = false

    @Option(
        help:
            "Most connections open at once, parked long polls included; more are refused. (default: \(defaults.http.connectionLimit))"
    )
    var maxConnections: Int?

    @Option(
        help:
            "Most connections open at once from one client address; more are closed at once. (default: \(defaults.http.perClientConnectionLimit))"
    )
    var maxConnectionsPerClient: Int?

    @Option(
        help:
            "Seconds a connection may take to send a whole request head after opening or after its previous answer (slow senders are cut off), and may stay silent mid-request. (default: \(defaults.http.idleTimeoutSeconds))"
    )
    var idleTimeout: Int?

    @Option(
        help:
            "A host name the Host header may carry besides localhost and --host (repeatable; IP addresses always may); others answer 421."
    )
    var allowedHost: [String] = []

    @Option(
        help:
            "A web origin (http://example.com:3000) whose pages may call the API and read its answers and streams (CORS; repeatable); other origins' changes answer 403."
    )
    var allowedOrigin: [String] = []

    @Option(
        help:
            "Longest long poll a read's wait may ask for, in seconds; a longer wait answers 400. (default: \(defaults.service.maxWait))"
    )
    var maxWait: Double?

    @Option(
        help:
            "Longest a live app's callback waits for its answer over HTTP, in seconds; an unanswered one is taken as hung. (default: \(defaults.service.liveAnswerTimeout))"
    )
    var liveAnswerTimeout: Double?

    @Option(
        help:
            "Largest event in bytes of JSON (each of a batch; also a device's or app's description); larger answer 413. (default: \(defaults.service.maxEventBytes))"
    )
    var maxEventBytes: Int?

    @Option(
        help:
            "Bytes of items after which a page or list stops early, with next set to go on. (default: \(defaults.service.maxAnswerBytes))"
    )
    var maxAnswerBytes: Int?

    @Option(
        help:
            "Bytes of timeline entries one device keeps, its apps' included; the oldest go first (410). (default: \(defaults.service.historyBytes))"
    )
    var historyBytes: Int?

    @Option(
        help:
            "Bytes clients may make the daemon hold over every device (docs/MEMORY.md): past it the devices holding the most give up their oldest entries (410), then remembered answers, then recordings; descriptions that do not fit answer 507. (default: \(defaults.service.memoryBytes))"
    )
    var memoryBytes: Int?

    @Option(
        help:
            "The same budget for each namespace. (default: \(defaults.service.namespaceMemoryBytes))"
    )
    var namespaceMemoryBytes: Int?

    @Option(
        help:
            "Bytes of inputs one device records for an export; a device that accepts more cannot be exported. 0: none. (default: \(defaults.service.recordingBytes))"
    )
    var recordingBytes: Int?

    @Option(
        help:
            "A scenario file or folder applied at start, before the daemon is ready, into the namespace each names (default when none), once: a namespace that holds data already is left as it is (repeatable)."
    )
    var seed: [String] = []

    @Option(
        help:
            "Most devices one namespace may hold; a creation beyond answers \(ProblemCode.quotaExceeded.answer). (default: \(defaults.service.maxDevicesPerNamespace))"
    )
    var maxDevicesPerNamespace: Int?

    @Option(
        help:
            "Most apps one namespace may hold; a creation beyond answers \(ProblemCode.quotaExceeded.answer). (default: \(defaults.service.maxAppsPerNamespace))"
    )
    var maxAppsPerNamespace: Int?

    @Option(
        help:
            "Most namespaces the daemon holds besides default; a creation beyond answers \(ProblemCode.quotaExceeded.answer). (default: \(defaults.service.maxNamespaces))"
    )
    var maxNamespaces: Int?

    @Option(
        help:
            "Most namespaces one token (not an admin's) may have created and still hold; more answer \(ProblemCode.quotaExceeded.answer). (default: \(defaults.service.maxNamespacesPerToken))"
    )
    var maxNamespacesPerToken: Int?

    @Option(
        help:
            "Most devices the daemon holds over every namespace; a creation beyond answers \(ProblemCode.quotaExceeded.answer). (default: \(defaults.service.maxDevices))"
    )
    var maxDevices: Int?

    @Option(
        help:
            "Most apps the daemon holds over every namespace; a creation beyond answers \(ProblemCode.quotaExceeded.answer). (default: \(defaults.service.maxApps))"
    )
    var maxApps: Int?

    @Option(
        help:
            "Bytes the store may hold on disk; past it, changes but deletions and resets answer \(ProblemCode.insufficientStorage.answer). 0: no cap. (default: 0)"
    )
    var maxDataBytes: Int?

    @Option(
        help:
            "Bytes the store's disk must keep free; below it, changes answer \(ProblemCode.insufficientStorage.answer). (default: \(defaults.service.minFreeDiskBytes))"
    )
    var minFreeDiskBytes: Int?

    @Option(
        help:
            "Log (notice) each event answered in this many milliseconds or more, with where its time went, and each journal commit, checkpoint and snapshot that took as long; 0: off. (default: \(defaults.service.traceSlowMilliseconds))"
    )
    var traceSlowMs: Int?

    /// The default store directory, as the help shows it.
    private static var defaultDirectory: String {
        if case .directory(let directory) = defaults.store { return directory }
        return "none"
    }

    /// What the flags, the environment and the file say, over the library's defaults (`SettingSources`).
    func settings() throws(SettingError) -> Settings {
        try SettingSources(commandLine: self, environment: ProcessInfo.processInfo.environment).resolve()
    }

    /// The settings are checked here, when the daemon runs, rather than in `validate()`, which ArgumentParser
    /// also calls before a subcommand (`token`, `check`): those do not read them, and a variable meant for the
    /// daemon does not stop them.
    func run() throws {
        let settings: Settings
        do {
            settings = try self.settings()
        } catch {
            throw ValidationError(error.description)
        }
        let logger = Self.bootstrap(level: settings.logLevel, format: settings.logFormat)
        logger.info("starting", metadata: ["version": "\(BuildInfo.version)", "revision": "\(BuildInfo.revision)"])
        let prometheus = Self.bootstrapMetrics()
        var configuration = settings.daemon
        configuration.service.metricsText = {
            var buffer: [UInt8] = []
            prometheus.emit(into: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        // Signals are blocked before the store's and the HTTP server's threads start (threads inherit the mask),
        // then this thread waits for one with sigwait.
        let signals = Signals.block([SIGTERM, SIGINT, SIGHUP])
        let supervisor = SystemdNotifier()
        let daemon: Daemon
        do {
            // A store that failed takes no more changes; the daemon drains and exits for its supervisor to
            // restart it, and the restart replays exactly what was durable.
            daemon = try Daemon(configuration: configuration, logger: logger) { kill(getpid(), SIGTERM) }
            try daemon.listen()
            let store: String
            switch configuration.store {
            case .memory: store = "memory"
            case .directory(let directory): store = directory
            }
            logger.info(
                "listening", metadata: ["url": "http://\(configuration.http.host):\(daemon.port)", "store": "\(store)"])
            let started = Date()
            let replayed = try daemon.recover()
            logger.info(
                "ready",
                metadata: [
                    "replayedRecords": .stringConvertible(replayed),
                    "recoverySeconds": .stringConvertible((Date().timeIntervalSince(started) * 1000).rounded() / 1000),
                ])
            supervisor.ready(status: "listening on port \(daemon.port)")
        } catch {
            logger.critical("\(error)")
            throw ExitCode(2)
        }

        var signal = signals.wait()
        while signal == SIGHUP {
            supervisor.reloading()
            reloadTokens(of: daemon, logger: logger)
            supervisor.ready(status: "listening on port \(daemon.port)")
            signal = signals.wait()
        }
        supervisor.stopping()
        logger.info("draining", metadata: ["signal": "\(signal)"])
        daemon.stop()
        if daemon.storeFailed {
            logger.critical("stopped: the store failed; restart the daemon once the fault is cleared")
            throw ExitCode(75)
        }
        logger.info("stopped")
    }

    /// Re-reads the tokens file on SIGHUP; a file that does not parse keeps the tokens in force.
    private func reloadTokens(of daemon: Daemon, logger: Logger) {
        do {
            guard let count = try daemon.reloadTokens() else {
                return logger.info("SIGHUP without --tokens: nothing to reload")
            }
            logger.info("tokens reloaded", metadata: ["count": .stringConvertible(count)])
        } catch {
            logger.error("tokens file not reloaded; the previous tokens stay in force", metadata: ["error": "\(error)"])
        }
    }

    private static func bootstrap(level: Logger.Level, format: LogFormat) -> Logger {
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                return JSONLogHandler(label: label, logLevel: level)
            }
        }
        return Logger(label: "lifecycled")
    }

    private static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let prometheus = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: prometheus)
        factory.defaultDurationHistogramBuckets = RequestMetrics.durationBounds
        MetricsSystem.bootstrap(factory)
        return prometheus
    }
}
