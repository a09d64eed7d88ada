import Foundation
public import HTTPServer
import LifecycleApplication
public import LifecycleServer
public import LifecycleStore
import Locking
public import Logging

/// A daemon built from one `DaemonConfiguration`: the journal, the service and the HTTP server, started,
/// recovered and stopped in the order the executable and the tests alike need.
public final class Daemon: Sendable {
    public let configuration: DaemonConfiguration
    public let service: LifecycleService
    public let server: HTTPServer
    public let journal: any Journal
    private let logger: Logger
    private let failed = Protected(false)

    /// Opens the tokens file and the store and builds the service and the server; nothing listens yet.
    /// `storeFailed` runs once, the first time the store fails to make a change durable (the executable
    /// stops then, for its supervisor to restart it).
    public convenience init(
        configuration: DaemonConfiguration, logger: Logger, storeFailed: @escaping @Sendable () -> Void = {}
    ) throws(DaemonError) {
        if let problem = configuration.problem { throw .configuration(problem) }
        let tokens = try Self.tokens(configuration)
        let seeds = try Self.seeds(configuration)
        let journal: any Journal
        switch configuration.store {
        case .memory:
            journal = MemoryJournal()
        case .directory(let directory):
            do {
                let slow = configuration.service.traceSlowMilliseconds
                journal = try SQLiteJournal(
                    directory: directory, logger: logger,
                    trace: slow > 0 ? SlowTrace(milliseconds: slow, logger: logger) : nil)
            } catch {
                throw .store(directory: directory, reason: "\(error)")
            }
        }
        self.init(
            configuration: configuration, tokens: tokens, seeds: seeds, journal: journal, logger: logger,
            storeFailed: storeFailed)
    }

    /// A daemon over a journal the caller opened (`configuration.store` is not looked at): for tests that
    /// need a store of their own making (a full disk), or bounds far below what the command line accepts
    /// (a history of a few entries), so `problem` is not asked.
    package convenience init(
        configuration: DaemonConfiguration, journal: any Journal, logger: Logger,
        storeFailed: @escaping @Sendable () -> Void = {}
    ) throws(DaemonError) {
        let tokens = try Self.tokens(configuration)
        self.init(
            configuration: configuration, tokens: tokens, seeds: try Self.seeds(configuration), journal: journal,
            logger: logger, storeFailed: storeFailed)
    }

    private init(
        configuration: DaemonConfiguration, tokens: TokenTable?, seeds: [SeedScenario], journal: any Journal,
        logger: Logger, storeFailed: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.logger = logger
        self.journal = journal
        var options = configuration.service
        if let tokens { options.tokens = tokens }
        options.seeds += seeds
        options.maxBodyBytes = configuration.http.maxBodyBytes
        let failed = self.failed
        let earlier = options.storeFailed
        options.storeFailed = {
            failed.withLock { $0 = true }
            earlier()
            storeFailed()
        }
        service = LifecycleService(journal: journal, options: options, logger: logger)
        server = HTTPServer(configuration: configuration.http, responder: service, logger: logger)
    }

    /// The scenarios of the configuration's `--seed` paths, read.
    private static func seeds(_ configuration: DaemonConfiguration) throws(DaemonError) -> [SeedScenario] {
        do {
            return try SeedScenario.read(configuration.seedPaths, limit: configuration.http.maxBodyBytes)
        } catch {
            throw .seed(reason: "\(error)")
        }
    }

    /// The tokens of the configuration's file; nil when it names none.
    private static func tokens(_ configuration: DaemonConfiguration) throws(DaemonError) -> TokenTable? {
        guard let file = configuration.tokensFile else { return nil }
        do {
            return try loadTokens(file)
        } catch {
            throw .tokens(file: file, reason: "\(error)")
        }
    }

    /// The port it listens on (the one picked when the configuration said 0), once started.
    public var port: Int { server.port }

    /// Whether the store failed to make a change durable: the daemon takes no more changes.
    public var storeFailed: Bool { failed.withLock { $0 } }

    /// Listens, then recovers the journal (requests answer 503 `not-ready` meanwhile); returns how many
    /// records were replayed. On a failure nothing is left listening or open.
    @discardableResult
    public func start() throws(DaemonError) -> Int {
        try listen()
        return try recover()
    }

    /// Starts listening: from here on requests are answered (503 `not-ready` until `recover()` is done).
    public func listen() throws(DaemonError) {
        do {
            try server.start()
        } catch {
            journal.close()
            throw .listen(host: configuration.http.host, port: configuration.http.port, reason: "\(error)")
        }
    }

    /// Replays the journal and opens the API; returns how many records were replayed.
    public func recover() throws(DaemonError) -> Int {
        do {
            return try service.recover()
        } catch let error as SeedError {
            server.stop()
            journal.close()
            throw .seed(reason: error.description)
        } catch {
            server.stop()
            journal.close()
            throw .recovery(reason: "\(error)")
        }
    }

    /// Stops as on SIGTERM: answers what is parked, takes no more requests, makes everything durable,
    /// stops the server and closes the store.
    public func stop() {
        service.beginDraining()
        server.quiesce()
        service.finishDraining()
        server.stop()
        journal.close()
    }

    /// Re-reads the tokens file; a file that does not parse leaves the tokens in force and throws.
    /// Returns how many tokens are in force; nil when the daemon has no tokens file.
    @discardableResult
    public func reloadTokens() throws(DaemonError) -> Int? {
        guard let file = configuration.tokensFile else { return nil }
        do {
            let table = try Self.loadTokens(file)
            service.setTokens(table)
            return table.tokens.count
        } catch {
            throw .tokens(file: file, reason: "\(error)")
        }
    }

    static func loadTokens(_ path: String) throws -> TokenTable {
        // Anyone who can write the file can give themselves any token, and anyone who can read it learns every
        // token's name, role and hash: refuse a file its group may write or every user may read or write, at start
        // and at reload. Its group may read it.
        let bits = FilePermissions.groupWrites | FilePermissions.othersRead | FilePermissions.othersWrite
        if let exposure = FilePermissions.exposure(of: path, among: bits) {
            throw TokenFile.Error(
                description: "\(path) \(exposure); make it readable by its owner (and group) and writable by its owner "
                    + "only, e.g. chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TokenFile.Error(description: "cannot read \(path)")
        }
        return TokenTable(try TokenFile.parse(Array(data)))
    }
}

/// Why a daemon did not start.
public enum DaemonError: Error, CustomStringConvertible {
    case configuration(String)
    case tokens(file: String, reason: String)
    case store(directory: String, reason: String)
    case listen(host: String, port: Int, reason: String)
    case recovery(reason: String)
    case seed(reason: String)

    public var description: String {
        switch self {
        case .configuration(let problem): problem
        case .tokens(let file, let reason): "cannot read the tokens file \(file): \(reason)"
        case .store(let directory, let reason): "cannot open the data directory \(directory): \(reason)"
        case .listen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .recovery(let reason): "cannot recover the data directory: \(reason)"
        case .seed(let reason): "cannot seed: \(reason)"
        }
    }
}
