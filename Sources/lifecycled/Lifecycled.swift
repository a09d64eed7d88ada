import ArgumentParser
import Dispatch
import Foundation
import HTTPServer
import LifecycleServer
import LifecycleStore
import Logging
import Metrics
import Prometheus
import Synchronization

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
        subcommands: [TokenCommand.self])

    @Option(help: "Address to listen on.")
    var host = Environment.string("LIFECYCLED_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (the log line says which).")
    var port = Environment.int("LIFECYCLED_PORT") ?? 8080

    @Option(help: "Directory of the durable store (SQLite, WAL). (default: ./lifecycled-data)")
    var dataDir: String?

    @Flag(help: "Keep everything in memory: nothing survives a restart.")
    var inMemory = Environment.bool("LIFECYCLED_IN_MEMORY") ?? false

    @Option(help: "HTTP threads, each an event loop with its own connections (1 to 64).")
    var threads = Environment.int("LIFECYCLED_THREADS") ?? 2

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = Environment.string("LIFECYCLED_LOG_LEVEL") ?? "info"

    @Option(help: "Entries kept per app timeline; older cursors answer 410.")
    var historyLimit = Environment.int("LIFECYCLED_HISTORY_LIMIT") ?? 10_000

    @Option(help: "Timeline entries a device produces between two snapshots of it (bounds start-up replay).")
    var snapshotEvery = Environment.int("LIFECYCLED_SNAPSHOT_EVERY") ?? 10_000

    @Option(help: "Largest request body in bytes; larger ones answer 413.")
    var maxBodyBytes = Environment.int("LIFECYCLED_MAX_BODY_BYTES") ?? 1 << 20

    @Option(
        name: .customLong("tokens"),
        help: "Access tokens file (JSON, tokens by their SHA-256); re-read on SIGHUP. Without it, no token is needed.")
    var tokensOption: String?

    @Flag(help: "Listen on a non-loopback --host without --tokens: anyone who reaches the port may do anything.")
    var allowUnauthenticated = Environment.bool("LIFECYCLED_ALLOW_UNAUTHENTICATED") ?? false

    /// The tokens file: the flag, else the environment; nil, tokens are off.
    var tokens: String? { tokensOption ?? Environment.string("LIFECYCLED_TOKENS_FILE") }

    @Option(help: "Most connections open at once, parked long polls included; more are refused.")
    var maxConnections = Environment.int("LIFECYCLED_MAX_CONNECTIONS") ?? 20_000

    @Option(help: "Most connections open at once from one client address; more are closed at once.")
    var maxConnectionsPerClient = Environment.int("LIFECYCLED_MAX_CONNECTIONS_PER_CLIENT") ?? 4096

    @Option(
        help:
            "Seconds a connection may take to send a whole request head after opening or after its previous answer (slow senders are cut off), and may stay silent mid-request."
    )
    var idleTimeout = Environment.int("LIFECYCLED_IDLE_TIMEOUT") ?? 30

    @Option(
        help:
            "A host name the Host header may carry besides localhost and --host (repeatable; IP addresses always may); others answer 421."
    )
    var allowedHost: [String] = Environment.list("LIFECYCLED_ALLOWED_HOSTS")

    @Option(
        help:
            "A web origin (http://example.com:3000) whose pages may send state-changing requests (repeatable); other origins answer 403."
    )
    var allowedOrigin: [String] = Environment.list("LIFECYCLED_ALLOWED_ORIGINS")

    @Option(help: "Longest long poll a read's wait may ask for, in seconds; a longer wait answers 400.")
    var maxWait = Environment.double("LIFECYCLED_MAX_WAIT") ?? 60

    @Option(
        help:
            "Largest event in bytes of JSON (each of a batch; also a device's or app's description); larger answer 413."
    )
    var maxEventBytes = Environment.int("LIFECYCLED_MAX_EVENT_BYTES") ?? 64 << 10

    @Option(help: "Bytes of items after which a page or list stops early, with next set to go on.")
    var maxAnswerBytes = Environment.int("LIFECYCLED_MAX_ANSWER_BYTES") ?? 4 << 20

    @Option(help: "Bytes of timeline entries one device keeps, its apps' included; the oldest go first (410).")
    var historyBytes = Environment.int("LIFECYCLED_HISTORY_BYTES") ?? 32 << 20

    @Option(help: "Most devices one namespace may hold; a creation beyond answers 403 quota-exceeded.")
    var maxDevicesPerNamespace = Environment.int("LIFECYCLED_MAX_DEVICES_PER_NAMESPACE") ?? 10_000

    @Option(help: "Most apps one namespace may hold; a creation beyond answers 403 quota-exceeded.")
    var maxAppsPerNamespace = Environment.int("LIFECYCLED_MAX_APPS_PER_NAMESPACE") ?? 100_000

    /// The store's directory: the flag, else the environment, else ./lifecycled-data.
    var storeDirectory: String { dataDir ?? Environment.string("LIFECYCLED_DATA_DIR") ?? "./lifecycled-data" }

    func validate() throws {
        if inMemory && dataDir != nil {
            throw ValidationError("--data-dir and --in-memory exclude each other: choose one")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard (1...64).contains(threads) else { throw ValidationError("--threads must be from 1 to 64") }
        guard historyLimit >= 1 else { throw ValidationError("--history-limit must be 1 or more") }
        guard snapshotEvery >= 1 else { throw ValidationError("--snapshot-every must be 1 or more") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be 1024 or more") }
        if tokens == nil && !allowUnauthenticated && !Self.isLoopback(host) {
            throw ValidationError(
                "--host \(host) is not a loopback address: give --tokens FILE (see lifecycled token new), or "
                    + "--allow-unauthenticated to let anyone who reaches the port do anything")
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be 1 or more") }
        guard maxConnectionsPerClient >= 1 else {
            throw ValidationError("--max-connections-per-client must be 1 or more")
        }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be from 1 to 3600") }
        guard maxEventBytes >= 1024 else { throw ValidationError("--max-event-bytes must be 1024 or more") }
        guard maxAnswerBytes >= 65536 else { throw ValidationError("--max-answer-bytes must be 65536 or more") }
        guard historyBytes >= 1 << 20 else { throw ValidationError("--history-bytes must be 1048576 or more") }
        guard maxWait.isFinite, (0...3600).contains(maxWait) else {
            throw ValidationError("--max-wait must be from 0 to 3600 seconds")
        }
        guard maxDevicesPerNamespace >= 1 else {
            throw ValidationError("--max-devices-per-namespace must be 1 or more")
        }
        guard maxAppsPerNamespace >= 1 else { throw ValidationError("--max-apps-per-namespace must be 1 or more") }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "lifecycled")
        let prometheus = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: prometheus)
        // Requests take microseconds to milliseconds; long polls up to a minute.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100),
            .milliseconds(500), .seconds(1), .seconds(5), .seconds(30), .seconds(60),
        ]
        MetricsSystem.bootstrap(factory)

        // Signals are blocked before the store's and the HTTP server's threads start (threads inherit the mask),
        // then this thread waits for one with sigwait.
        let signals = Signals.block([SIGTERM, SIGINT, SIGHUP])
        let tokenTable: TokenTable?
        do {
            tokenTable = try tokens.map(Self.loadTokens)
        } catch {
            logger.critical(
                "cannot read the tokens file", metadata: ["tokens": "\(tokens ?? "")", "error": "\(error)"])
            throw ExitCode(2)
        }

        let journal: any Journal
        if inMemory {
            journal = MemoryJournal()
        } else {
            do {
                journal = try SQLiteJournal(directory: storeDirectory, logger: logger)
            } catch {
                logger.critical(
                    "cannot open the data directory", metadata: ["dataDir": "\(storeDirectory)", "error": "\(error)"])
                throw ExitCode(2)
            }
        }
        var options = ServiceOptions()
        // A store that failed takes no more changes; the daemon drains and exits for its supervisor to restart
        // it, and the restart replays exactly what was durable.
        let storeFailed = Atomic<Bool>(false)
        options.storeFailed = {
            storeFailed.store(true, ordering: .relaxed)
            kill(getpid(), SIGTERM)
        }
        options.historyLimit = historyLimit
        options.snapshotEvery = snapshotEvery
        options.tokens = tokenTable
        options.maxWait = maxWait
        options.maxEventBytes = maxEventBytes
        options.maxAnswerBytes = maxAnswerBytes
        options.historyBytes = historyBytes
        options.maxDevicesPerNamespace = maxDevicesPerNamespace
        options.maxAppsPerNamespace = maxAppsPerNamespace
        options.metricsText = {
            var buffer: [UInt8] = []
            prometheus.emit(into: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        let service = LifecycleService(journal: journal, options: options, logger: logger)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: host, port: port, threads: threads, maxBodyBytes: maxBodyBytes,
                connectionLimit: maxConnections, perClientConnectionLimit: maxConnectionsPerClient,
                idleTimeoutSeconds: idleTimeout, allowedHosts: allowedHost, allowedOrigins: allowedOrigin),
            responder: service, logger: logger)
        do {
            try server.start()
        } catch {
            logger.critical("cannot listen", metadata: ["host": "\(host)", "port": "\(port)", "error": "\(error)"])
            throw ExitCode(2)
        }
        logger.info(
            "listening",
            metadata: [
                "url": "http://\(host):\(server.port)", "store": "\(inMemory ? "memory" : storeDirectory)",
            ])
        do {
            let started = Date()
            let replayed = try service.recover()
            logger.info(
                "ready",
                metadata: [
                    "replayedRecords": "\(replayed)",
                    "recoverySeconds": "\(String(format: "%.3f", Date().timeIntervalSince(started)))",
                ])
        } catch {
            logger.critical("cannot recover the data directory", metadata: ["error": "\(error)"])
            server.stop()
            journal.close()
            throw ExitCode(2)
        }

        var signal = signals.wait()
        while signal == SIGHUP {
            reloadTokens(into: service, logger: logger)
            signal = signals.wait()
        }
        logger.info("draining", metadata: ["signal": "\(signal)"])
        service.beginDraining()
        server.quiesce()
        service.finishDraining()
        server.stop()
        journal.close()
        if storeFailed.load(ordering: .relaxed) {
            logger.critical("stopped: the store failed; restart the daemon once the fault is cleared")
            throw ExitCode(75)
        }
        logger.info("stopped")
    }

    /// Re-reads the tokens file on SIGHUP; a file that does not parse keeps the tokens in force.
    private func reloadTokens(into service: LifecycleService, logger: Logger) {
        guard let tokens else {
            logger.info("SIGHUP without --tokens: nothing to reload")
            return
        }
        do {
            let table = try Self.loadTokens(tokens)
            service.setTokens(table)
            logger.info("tokens reloaded", metadata: ["tokens": "\(tokens)", "count": "\(table.tokens.count)"])
        } catch {
            logger.error(
                "tokens file not reloaded; the previous tokens stay in force",
                metadata: ["tokens": "\(tokens)", "error": "\(error)"])
        }
    }

    static func loadTokens(_ path: String) throws -> TokenTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TokenFile.Error(description: "cannot read \(path)")
        }
        return TokenTable(try TokenFile.parse(Array(data)))
    }

    /// Whether `host` only accepts connections from this machine.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
