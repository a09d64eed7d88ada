public import HTTPServer
public import LifecycleApplication

/// Everything a daemon is built from, with the one set of defaults: the command line starts from
/// `DaemonConfiguration()` and changes what its flags and `LIFECYCLED_*` variables say; tests and
/// programs that embed a daemon do the same in code.
public struct DaemonConfiguration: Sendable {
    /// Where the journal lives.
    public enum Store: Sendable, Equatable {
        /// Nothing survives the process.
        case memory
        /// SQLite (WAL) in this directory, created when missing.
        case directory(String)
    }

    public var store = Store.directory("./lifecycled-data")
    /// Where and how it listens: host, port, threads, body and connection limits, allowed hosts and origins.
    public var http = HTTPServerConfiguration()
    /// What the API keeps and allows: history, snapshots, event and answer sizes, waits, quotas.
    public var service = ServiceOptions()
    /// The access tokens file (JSON, tokens by their SHA-256), re-read by `Daemon.reloadTokens()`; nil: no
    /// token is needed.
    public var tokensFile: String?
    /// Whether a daemon without `tokensFile` may listen on an address other than loopback.
    public var allowUnauthenticated = false
    /// Scenario files or folders applied at start-up into the namespaces they name, once (`--seed`).
    public var seedPaths: [String] = []

    public init() {}

    /// What is wrong with a configuration: the setting (its key: `port`, flag `--port`, variable
    /// `LIFECYCLED_PORT`) and what it allows.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var setting: String
        public var allowed: String
        /// In the words of the command line: `--port must be from 0 to 65535`.
        public var description: String { "--\(setting) \(allowed)" }
    }

    /// The first thing wrong with the configuration, in the words of the command line's flags; nil when
    /// nothing is.
    public var problem: String? { firstProblem?.description }

    /// The first thing wrong with the configuration; nil when nothing is. The one place a value's range is
    /// written: the command line names the source (flag, variable or file) and the value around it.
    public var firstProblem: Problem? {
        let http = self.http
        let service = self.service
        let checks: [(holds: Bool, setting: String, allowed: String)] = [
            ((0...65535).contains(http.port), "port", "must be from 0 to 65535"),
            ((1...64).contains(http.threads), "threads", "must be from 1 to 64"),
            (service.historyLimit >= 1, "history-limit", "must be 1 or more"),
            (service.snapshotEvery >= 1, "snapshot-every", "must be 1 or more"),
            (http.maxBodyBytes >= 1024, "max-body-bytes", "must be 1024 or more"),
            (
                tokensFile != nil || allowUnauthenticated || Self.isLoopback(http.host), "host",
                "\(http.host) is not a loopback address: give --tokens FILE (see lifecycled token new), or "
                    + "--allow-unauthenticated to let anyone who reaches the port do anything"
            ),
            (
                !http.allowedOrigins.contains { $0.lowercased() == "null" }, "allowed-origins",
                "may not hold null: browsers send Origin: null from sandboxed frames and local files, so allowing it "
                    + "would let every such page drive the daemon; give each page's origin, scheme://host[:port]"
            ),
            (
                !http.allowedOrigins.contains("*"), "allowed-origins",
                "may not hold *: it would let any web page drive the daemon; give each page's origin, "
                    + "scheme://host[:port]"
            ),
            (http.connectionLimit >= 1, "max-connections", "must be 1 or more"),
            (http.perClientConnectionLimit >= 1, "max-connections-per-client", "must be 1 or more"),
            ((1...3600).contains(http.idleTimeoutSeconds), "idle-timeout", "must be from 1 to 3600"),
            (service.maxEventBytes >= 1024, "max-event-bytes", "must be 1024 or more"),
            (service.maxAnswerBytes >= 65536, "max-answer-bytes", "must be 65536 or more"),
            (service.historyBytes >= 1 << 20, "history-bytes", "must be 1048576 or more"),
            (service.memoryBytes >= 1 << 20, "memory-bytes", "must be 1048576 or more"),
            (service.namespaceMemoryBytes >= 1 << 20, "namespace-memory-bytes", "must be 1048576 or more"),
            (service.recordingBytes >= 0, "recording-bytes", "must be 0 or more"),
            (
                service.maxWait.isFinite && (0...3600).contains(service.maxWait), "max-wait",
                "must be from 0 to 3600 seconds"
            ),
            (
                service.liveAnswerTimeout.isFinite && (0...3600).contains(service.liveAnswerTimeout),
                "live-answer-timeout", "must be from 0 to 3600 seconds"
            ),
            (service.maxDevicesPerNamespace >= 1, "max-devices-per-namespace", "must be 1 or more"),
            (service.maxAppsPerNamespace >= 1, "max-apps-per-namespace", "must be 1 or more"),
            (service.maxNamespaces >= 1, "max-namespaces", "must be 1 or more"),
            (service.maxNamespacesPerToken >= 1, "max-namespaces-per-token", "must be 1 or more"),
            (service.maxDevices >= 1, "max-devices", "must be 1 or more"),
            (service.maxApps >= 1, "max-apps", "must be 1 or more"),
            (
                service.maxDataBytes == 0 || service.maxDataBytes >= 1 << 20, "max-data-bytes",
                "must be 0 (no cap) or 1048576 or more"
            ),
            (service.minFreeDiskBytes >= 0, "min-free-disk-bytes", "must be 0 or more"),
            ((0...60000).contains(service.traceSlowMilliseconds), "trace-slow-ms", "must be from 0 (off) to 60000"),
        ]
        return checks.first { !$0.holds }.map { Problem(setting: $0.setting, allowed: $0.allowed) }
    }

    /// Whether `host` only accepts connections from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
