import ArgumentParser
import Foundation
import HTTPServer
import LifecycleDaemon
import LifecycleServer
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
            """,
        discussion: """
            Every option can also be set from the environment: LIFECYCLED_HOST, LIFECYCLED_PORT, \
            LIFECYCLED_DATA_DIR, LIFECYCLED_IN_MEMORY (1 or true), LIFECYCLED_THREADS, LIFECYCLED_LOG_LEVEL, \
            LIFECYCLED_HISTORY_LIMIT, LIFECYCLED_SNAPSHOT_EVERY, LIFECYCLED_MAX_BODY_BYTES, \
            LIFECYCLED_MAX_CONNECTIONS, LIFECYCLED_MAX_CONNECTIONS_PER_CLIENT, LIFECYCLED_IDLE_TIMEOUT, \
            LIFECYCLED_ALLOWED_HOSTS and LIFECYCLED_ALLOWED_ORIGINS (comma-separated), LIFECYCLED_TOKENS_FILE, \
            LIFECYCLED_ALLOW_UNAUTHENTICATED, LIFECYCLED_MAX_WAIT, LIFECYCLED_MAX_EVENT_BYTES, \
            LIFECYCLED_MAX_ANSWER_BYTES, LIFECYCLED_HISTORY_BYTES, LIFECYCLED_MAX_DEVICES_PER_NAMESPACE, \
            LIFECYCLED_MAX_APPS_PER_NAMESPACE. A flag on the command line wins.
            """,
        version: "lifecycled \(BuildInfo.version) (revision \(BuildInfo.revision))",
        subcommands: [TokenCommand.self])

    /// Every default below is the library's (`DaemonConfiguration()`), written once there.
    private static let defaults = DaemonConfiguration()

    @Option(help: "Address to listen on.")
    var host = Environment.string("LIFECYCLED_HOST") ?? defaults.http.host

    @Option(help: "Port to listen on; 0 picks a free one (the log line says which).")
    var port = Environment.int("LIFECYCLED_PORT") ?? defaults.http.port

    @Option(help: "Directory of the durable store (SQLite, WAL). (default: \(defaultDirectory))")
    var dataDir: String?

    @Flag(help: "Keep everything in memory: nothing survives a restart.")
    var inMemory = Environment.bool("LIFECYCLED_IN_MEMORY") ?? (defaults.store == .memory)

    @Option(help: "HTTP threads, each an event loop with its own connections (1 to 64).")
    var threads = Environment.int("LIFECYCLED_THREADS") ?? defaults.http.threads

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = Environment.string("LIFECYCLED_LOG_LEVEL") ?? "info"

    @Option(help: "Entries kept per app timeline; older cursors answer 410.")
    var historyLimit = Environment.int("LIFECYCLED_HISTORY_LIMIT") ?? defaults.service.historyLimit

    @Option(help: "Timeline entries a device produces between two snapshots of it (bounds start-up replay).")
    var snapshotEvery = Environment.int("LIFECYCLED_SNAPSHOT_EVERY") ?? defaults.service.snapshotEvery

    @Option(help: "Largest request body in bytes; larger ones answer 413.")
    var maxBodyBytes = Environment.int("LIFECYCLED_MAX_BODY_BYTES") ?? defaults.http.maxBodyBytes

    @Option(
        name: .customLong("tokens"),
        help: "Access tokens file (JSON, tokens by their SHA-256); re-read on SIGHUP. Without it, no token is needed.")
    var tokensOption: String?

    @Flag(help: "Listen on a non-loopback --host without --tokens: anyone who reaches the port may do anything.")
    var allowUnauthenticated = Environment.bool("LIFECYCLED_ALLOW_UNAUTHENTICATED") ?? defaults.allowUnauthenticated

    @Option(help: "Most connections open at once, parked long polls included; more are refused.")
    var maxConnections = Environment.int("LIFECYCLED_MAX_CONNECTIONS") ?? defaults.http.connectionLimit

    @Option(help: "Most connections open at once from one client address; more are closed at once.")
    var maxConnectionsPerClient =
        Environment.int("LIFECYCLED_MAX_CONNECTIONS_PER_CLIENT") ?? defaults.http.perClientConnectionLimit

    @Option(
        help:
            "Seconds a connection may take to send a whole request head after opening or after its previous answer (slow senders are cut off), and may stay silent mid-request."
    )
    var idleTimeout = Environment.int("LIFECYCLED_IDLE_TIMEOUT") ?? defaults.http.idleTimeoutSeconds

    @Option(
        help:
            "A host name the Host header may carry besides localhost and --host (repeatable; IP addresses always may); others answer 421."
    )
    var allowedHost: [String] = Environment.list("LIFECYCLED_ALLOWED_HOSTS")

    @Option(
        help:
            "A web origin (http://example.com:3000) whose pages may call the API and read its answers and streams (CORS; repeatable); other origins' changes answer 403."
    )
    var allowedOrigin: [String] = Environment.list("LIFECYCLED_ALLOWED_ORIGINS")

    @Option(help: "Longest long poll a read's wait may ask for, in seconds; a longer wait answers 400.")
    var maxWait = Environment.double("LIFECYCLED_MAX_WAIT") ?? defaults.service.maxWait

    @Option(
        help:
            "Largest event in bytes of JSON (each of a batch; also a device's or app's description); larger answer 413."
    )
    var maxEventBytes = Environment.int("LIFECYCLED_MAX_EVENT_BYTES") ?? defaults.service.maxEventBytes

    @Option(help: "Bytes of items after which a page or list stops early, with next set to go on.")
    var maxAnswerBytes = Environment.int("LIFECYCLED_MAX_ANSWER_BYTES") ?? defaults.service.maxAnswerBytes

    @Option(help: "Bytes of timeline entries one device keeps, its apps' included; the oldest go first (410).")
    var historyBytes = Environment.int("LIFECYCLED_HISTORY_BYTES") ?? defaults.service.historyBytes

    @Option(help: "Most devices one namespace may hold; a creation beyond answers 403 quota-exceeded.")
    var maxDevicesPerNamespace =
        Environment.int("LIFECYCLED_MAX_DEVICES_PER_NAMESPACE") ?? defaults.service.maxDevicesPerNamespace

    @Option(help: "Most apps one namespace may hold; a creation beyond answers 403 quota-exceeded.")
    var maxAppsPerNamespace =
        Environment.int("LIFECYCLED_MAX_APPS_PER_NAMESPACE") ?? defaults.service.maxAppsPerNamespace

    /// The default store directory, as the help shows it.
    private static var defaultDirectory: String {
        if case .directory(let directory) = defaults.store { return directory }
        return "none"
    }

    /// What the flags and the environment say, over the library's defaults: the one place a flag becomes
    /// part of the configuration.
    var configuration: DaemonConfiguration {
        var configuration = DaemonConfiguration()
        let directory = dataDir ?? Environment.string("LIFECYCLED_DATA_DIR")
        configuration.store = inMemory ? .memory : directory.map { .directory($0) } ?? Self.defaults.store
        configuration.http.host = host
        configuration.http.port = port
        configuration.http.threads = threads
        configuration.http.maxBodyBytes = maxBodyBytes
        configuration.http.connectionLimit = maxConnections
        configuration.http.perClientConnectionLimit = maxConnectionsPerClient
        configuration.http.idleTimeoutSeconds = idleTimeout
        configuration.http.allowedHosts = allowedHost
        configuration.http.allowedOrigins = allowedOrigin
        configuration.service.historyLimit = historyLimit
        configuration.service.snapshotEvery = snapshotEvery
        configuration.service.maxWait = maxWait
        configuration.service.maxEventBytes = maxEventBytes
        configuration.service.maxAnswerBytes = maxAnswerBytes
        configuration.service.historyBytes = historyBytes
        configuration.service.maxDevicesPerNamespace = maxDevicesPerNamespace
        configuration.service.maxAppsPerNamespace = maxAppsPerNamespace
        configuration.tokensFile = tokensOption ?? Environment.string("LIFECYCLED_TOKENS_FILE")
        configuration.allowUnauthenticated = allowUnauthenticated
        return configuration
    }

    func validate() throws {
        if inMemory && dataDir != nil {
            throw ValidationError("--data-dir and --in-memory exclude each other: choose one")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        if let problem = configuration.problem { throw ValidationError(problem) }
    }

    func run() throws {
        let logger = Self.bootstrap(level: Logger.Level(rawValue: logLevel)!)
        logger.info("starting", metadata: ["version": "\(BuildInfo.version)", "revision": "\(BuildInfo.revision)"])
        let prometheus = Self.bootstrapMetrics()
        var configuration = self.configuration
        configuration.service.metricsText = {
            var buffer: [UInt8] = []
            prometheus.emit(into: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        // Signals are blocked before the store's and the HTTP server's threads start (threads inherit the mask),
        // then this thread waits for one with sigwait.
        let signals = Signals.block([SIGTERM, SIGINT, SIGHUP])
        let supervisor = ServiceManager()
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
                    "replayedRecords": "\(replayed)",
                    "recoverySeconds": "\(String(format: "%.3f", Date().timeIntervalSince(started)))",
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
            logger.info("tokens reloaded", metadata: ["count": "\(count)"])
        } catch {
            logger.error("tokens file not reloaded; the previous tokens stay in force", metadata: ["error": "\(error)"])
        }
    }

    private static func bootstrap(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "lifecycled")
    }

    private static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let prometheus = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: prometheus)
        // Requests take microseconds to milliseconds; long polls up to a minute.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100),
            .milliseconds(500), .seconds(1), .seconds(5), .seconds(30), .seconds(60),
        ]
        MetricsSystem.bootstrap(factory)
        return prometheus
    }
}
