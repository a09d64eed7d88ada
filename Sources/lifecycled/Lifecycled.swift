import ArgumentParser
import Dispatch
import Foundation
import HTTPServer
import LifecycleServer
import LifecycleStore
import Logging
import Metrics
import Prometheus

/// The daemon: simulated iOS devices and apps behind a JSON REST API.
@main
struct Lifecycled: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifecycled",
        abstract: "Simulates iOS apps' lifecycles behind a JSON REST API.",
        discussion: """
            Every option can also be set from the environment: LIFECYCLED_HOST, LIFECYCLED_PORT, \
            LIFECYCLED_DATA_DIR, LIFECYCLED_IN_MEMORY (1 or true), LIFECYCLED_THREADS, LIFECYCLED_EVENT_LOOP, LIFECYCLED_LOG_LEVEL, \
            LIFECYCLED_HISTORY_LIMIT, LIFECYCLED_SNAPSHOT_EVERY, LIFECYCLED_MAX_BODY_BYTES, \
            LIFECYCLED_MAX_WAIT, LIFECYCLED_MAX_EVENT_BYTES, LIFECYCLED_MAX_ANSWER_BYTES, LIFECYCLED_HISTORY_BYTES. \
            A flag on the command line wins.
            """)

    @Option(help: "Address to listen on.")
    var host = Environment.string("LIFECYCLED_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (the log line says which).")
    var port = Environment.int("LIFECYCLED_PORT") ?? 8080

    @Option(help: "Directory of the durable store (SQLite, WAL). (default: ./lifecycled-data)")
    var dataDir: String?

    @Flag(help: "Keep everything in memory: nothing survives a restart.")
    var inMemory = Environment.bool("LIFECYCLED_IN_MEMORY") ?? false

    @Option(help: "HTTP threads (at least 2).")
    var threads = Environment.int("LIFECYCLED_THREADS") ?? 2

    @Option(help: "How the HTTP threads wait for sockets: epoll, or poll (see the README on epoll at 128 connections).")
    var eventLoop = Environment.string("LIFECYCLED_EVENT_LOOP") ?? "epoll"

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = Environment.string("LIFECYCLED_LOG_LEVEL") ?? "info"

    @Option(help: "Entries kept per app timeline; older cursors answer 410.")
    var historyLimit = Environment.int("LIFECYCLED_HISTORY_LIMIT") ?? 10_000

    @Option(help: "Timeline entries a device produces between two snapshots of it (bounds start-up replay).")
    var snapshotEvery = Environment.int("LIFECYCLED_SNAPSHOT_EVERY") ?? 10_000

    @Option(help: "Largest request body in bytes; larger ones answer 413.")
    var maxBodyBytes = Environment.int("LIFECYCLED_MAX_BODY_BYTES") ?? 1 << 20

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

    /// The store's directory: the flag, else the environment, else ./lifecycled-data.
    var storeDirectory: String { dataDir ?? Environment.string("LIFECYCLED_DATA_DIR") ?? "./lifecycled-data" }

    func validate() throws {
        if inMemory && dataDir != nil {
            throw ValidationError("--data-dir and --in-memory exclude each other: choose one")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        guard ["epoll", "poll"].contains(eventLoop) else { throw ValidationError("--event-loop must be epoll or poll") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard (2...64).contains(threads) else { throw ValidationError("--threads must be from 2 to 64") }
        guard historyLimit >= 1 else { throw ValidationError("--history-limit must be 1 or more") }
        guard snapshotEvery >= 1 else { throw ValidationError("--snapshot-every must be 1 or more") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be 1024 or more") }
        guard maxEventBytes >= 1024 else { throw ValidationError("--max-event-bytes must be 1024 or more") }
        guard maxAnswerBytes >= 65536 else { throw ValidationError("--max-answer-bytes must be 65536 or more") }
        guard historyBytes >= 1 << 20 else { throw ValidationError("--history-bytes must be 1048576 or more") }
        guard maxWait.isFinite, (0...3600).contains(maxWait) else {
            throw ValidationError("--max-wait must be from 0 to 3600 seconds")
        }
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

        // Signals are blocked before any thread starts, then waited for on one Dispatch source.
        let signals = Signals.block([SIGTERM, SIGINT])

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
        options.historyLimit = historyLimit
        options.snapshotEvery = snapshotEvery
        options.maxWait = maxWait
        options.maxEventBytes = maxEventBytes
        options.maxAnswerBytes = maxAnswerBytes
        options.historyBytes = historyBytes
        options.metricsText = {
            var buffer: [UInt8] = []
            prometheus.emit(into: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        let service = LifecycleService(journal: journal, options: options, logger: logger)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: host, port: port, threads: threads, maxBodyBytes: maxBodyBytes,
                pollingMode: eventLoop == "poll" ? .poll : .epoll),
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

        let signal = signals.wait()
        logger.info("draining", metadata: ["signal": "\(signal)"])
        service.beginDraining()
        server.quiesce()
        service.finishDraining()
        server.stop()
        journal.close()
        logger.info("stopped")
    }
}
