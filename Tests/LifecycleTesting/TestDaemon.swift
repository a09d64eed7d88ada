import Foundation
package import HTTPServer
package import LifecycleApplication
package import LifecycleServer
package import LifecycleDaemon
package import LifecycleStore
package import Locking
import Logging
import TestSupport

/// Where a test daemon keeps its journal.
package enum Store: Sendable {
    case memory
    /// A `SQLiteJournal` in this directory (which outlives the daemon, for restarts).
    case sqlite(directory: String)
    /// A `SQLiteJournal` in this directory whose database cannot grow past `pageLimit` pages: a full disk.
    case sqliteFull(directory: String, pageLimit: Int)
    /// This journal, as it is (a test's wrapper around another).
    case journal(any Journal)
}

/// The daemon in the test's process, built as the executable builds it (`Daemon`, from a
/// `DaemonConfiguration`), recovered and open, and reached in process (`Transport.inProcess`, the default)
/// or through its `HTTPServer` on a free port (`Transport.live`). Requests read the same either way.
package final class TestDaemon: Sendable {
    package let daemon: Daemon
    package var service: LifecycleService { daemon.service }
    /// The HTTP server of a live daemon; nil in process.
    package let server: HTTPServer?
    package var journal: any Journal { daemon.journal }
    private let inProcess: InProcessClient
    private let stopped = Protected(false)
    /// Whether requests go in process for now, live or not (`withRequestsInProcess(_:)`).
    private let requestsInProcess = Protected(false)
    /// How many times the service reported that its store failed (the daemon would exit then).
    package let storeFailures: Protected<Int>

    /// The HTTP server of a live daemon (a test of sockets needs one).
    package var http: HTTPServer {
        guard let server else { preconditionFailure("an in-process TestDaemon has no HTTP server: use Transport.live") }
        return server
    }

    package var port: Int { http.port }

    package init(
        store: Store = .memory, transport: Transport = .inProcess, historyLimit: Int = 10_000,
        maxBodyBytes: Int = 1 << 20, snapshotEvery: Int = 10_000, tokens: TokenTable? = nil, port: Int = 0,
        recovered: Bool = true, configure: (inout ServiceOptions) -> Void = { _ in },
        configureHTTP: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws {
        var logger = Logger(label: "lifecycled.tests")
        logger.logLevel = .error
        let journal: any Journal
        switch store {
        case .memory: journal = MemoryJournal()
        case .sqlite(let directory): journal = try SQLiteJournal(directory: directory, logger: logger)
        case .sqliteFull(let directory, let pageLimit):
            journal = try SQLiteJournal(directory: directory, logger: logger, pageLimit: pageLimit)
        case .journal(let given): journal = given
        }
        var configuration = DaemonConfiguration()
        configuration.http.port = port
        configuration.http.maxBodyBytes = maxBodyBytes
        configuration.service.historyLimit = historyLimit
        configuration.service.tokens = tokens
        configuration.service.snapshotEvery = snapshotEvery
        configuration.service.metricsText = { "# TYPE lifecycled_up gauge\nlifecycled_up 1\n" }
        let failures = Protected(0)
        storeFailures = failures
        configuration.service.storeFailed = { failures.withLock { $0 += 1 } }
        configure(&configuration.service)
        configureHTTP(&configuration.http)
        let daemon = try Daemon(configuration: configuration, journal: journal, logger: logger)
        self.daemon = daemon
        inProcess = InProcessClient(responder: daemon.service)
        switch transport {
        case .inProcess:
            server = nil
            _ = try daemon.recover()
        case .live:
            server = daemon.server
            // Not `recovered`: listening, answering `503 not-ready` until `recover()`, as a daemon starting does.
            if recovered { _ = try daemon.start() } else { try daemon.listen() }
        }
    }

    /// Recovers a daemon started with `recovered: false`; from then on it answers.
    package func recover() throws {
        _ = try daemon.recover()
    }

    /// Stops as the daemon does on SIGTERM: drain, quiesce, make everything durable, stop, close the store.
    package func stop() {
        guard stopped.exchange(true) == false else { return }
        daemon.stop()
    }

    // MARK: Requests

    package func request(
        _ method: String, _ path: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> Reply {
        var headers = headers
        if body != nil, !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            headers.append(("Content-Type", "application/json"))
        }
        let bytes = Array((body ?? "").utf8)
        guard let server, !requestsInProcess.withLock({ $0 }) else {
            return try inProcess.exchange(method: method, target: path, headers: headers, body: bytes)
        }
        return try BlockingHTTPClient.exchange(
            port: server.port, method: method, path: path, headers: headers, body: bytes)
    }

    /// Runs `body` with this daemon's requests made in process, even when it listens: for set-up that tests no
    /// socket (filling a namespace), which then costs no connection per request.
    package func withRequestsInProcess<T>(_ body: () throws -> T) rethrows -> T {
        let was = requestsInProcess.withLock { was in
            defer { was = true }
            return was
        }
        defer { requestsInProcess.withLock { $0 = was } }
        return try body()
    }

    package func get(_ path: String, headers: [(String, String)] = []) throws -> Reply {
        try request("GET", path, headers: headers)
    }

    /// POSTs `body`, a JSON text, as `application/json`.
    package func post(_ path: String, _ body: String, headers: [(String, String)] = []) throws -> Reply {
        try request("POST", path, body: body, headers: headers)
    }

    package func delete(_ path: String) throws -> Reply {
        try request("DELETE", path)
    }

    /// Long polls parked now.
    package var parkedPolls: Int { service.parkedPolls }
}
