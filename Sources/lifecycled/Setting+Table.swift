import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleDaemon
import LifecycleServer
import Logging

extension Setting {
    /// Every setting of the daemon, in the order `--help` and docs/CLI.md list them.
    static var all: [Setting] {
        [
            .text("host", \.host) { $0.daemon.http.host = $1 },
            .integer("port", \.port) { $0.daemon.http.port = $1 },
            .text("data-dir", \.dataDir) { $0.daemon.store = .directory($1) },
            .flag("in-memory", \.inMemory) { settings, on in
                if on { settings.daemon.store = .memory }
            },
            .integer("threads", \.threads) { $0.daemon.http.threads = $1 },
            .text("log-level", kind: .choice(Logger.Level.allCases.map(\.rawValue)), \.logLevel) {
                $0.logLevel = Logger.Level(rawValue: $1) ?? .info
            },
            .text("log-format", kind: .choice(LogFormat.allCases.map(\.rawValue)), \.logFormat) {
                $0.logFormat = LogFormat(rawValue: $1) ?? .text
            },
            .text("access-log", kind: .choice(["on", "off"]), \.accessLog) { $0.daemon.service.accessLog = $1 == "on" },
            .integer("history-limit", \.historyLimit) { $0.daemon.service.historyLimit = $1 },
            .integer("snapshot-every", \.snapshotEvery) { $0.daemon.service.snapshotEvery = $1 },
            .integer("max-body-bytes", \.maxBodyBytes) { $0.daemon.http.maxBodyBytes = $1 },
            .text("tokens-file", flag: "--tokens", \.tokensOption) { $0.daemon.tokensFile = $1 },
            .flag("allow-unauthenticated", \.allowUnauthenticated) { $0.daemon.allowUnauthenticated = $1 },
            .integer("max-connections", \.maxConnections) { $0.daemon.http.connectionLimit = $1 },
            .integer("max-connections-per-client", \.maxConnectionsPerClient) {
                $0.daemon.http.perClientConnectionLimit = $1
            },
            .integer("idle-timeout", \.idleTimeout) { $0.daemon.http.idleTimeoutSeconds = $1 },
            .list("allowed-hosts", flag: "--allowed-host", \.allowedHost) { $0.daemon.http.allowedHosts = $1 },
            .list("allowed-origins", flag: "--allowed-origin", \.allowedOrigin) { $0.daemon.http.allowedOrigins = $1 },
            .number("max-wait", \.maxWait) { $0.daemon.service.maxWait = $1 },
            .number("live-answer-timeout", \.liveAnswerTimeout) { $0.daemon.service.liveAnswerTimeout = $1 },
            .integer("max-event-bytes", \.maxEventBytes) { $0.daemon.service.maxEventBytes = $1 },
            .integer("max-answer-bytes", \.maxAnswerBytes) { $0.daemon.service.maxAnswerBytes = $1 },
            .integer("history-bytes", \.historyBytes) { $0.daemon.service.historyBytes = $1 },
            .integer("memory-bytes", \.memoryBytes) { $0.daemon.service.memoryBytes = $1 },
            .integer("namespace-memory-bytes", \.namespaceMemoryBytes) { $0.daemon.service.namespaceMemoryBytes = $1 },
            .integer("recording-bytes", \.recordingBytes) { $0.daemon.service.recordingBytes = $1 },
            .list("seeds", flag: "--seed", \.seed) { $0.daemon.seedPaths = $1 },
            .integer("max-devices-per-namespace", \.maxDevicesPerNamespace) {
                $0.daemon.service.maxDevicesPerNamespace = $1
            },
            .integer("max-apps-per-namespace", \.maxAppsPerNamespace) { $0.daemon.service.maxAppsPerNamespace = $1 },
            .integer("max-namespaces", \.maxNamespaces) { $0.daemon.service.maxNamespaces = $1 },
            .integer("max-namespaces-per-token", \.maxNamespacesPerToken) {
                $0.daemon.service.maxNamespacesPerToken = $1
            },
            .integer("max-devices", \.maxDevices) { $0.daemon.service.maxDevices = $1 },
            .integer("max-apps", \.maxApps) { $0.daemon.service.maxApps = $1 },
            .integer("max-data-bytes", \.maxDataBytes) { $0.daemon.service.maxDataBytes = $1 },
            .integer("min-free-disk-bytes", \.minFreeDiskBytes) { $0.daemon.service.minFreeDiskBytes = $1 },
            .integer("trace-slow-ms", \.traceSlowMs) { $0.daemon.service.traceSlowMilliseconds = $1 },
        ]
    }

    /// The configuration file's keys and the variables, as `--help` lists them.
    static var listing: String {
        all.map { "\($0.key) (\($0.variable))" }.joined(separator: ", ")
    }

    /// What a name that is no setting's was probably meant as, for "did you mean": of every setting's name
    /// in the form it was typed in (`form` turns a key into it: the key itself for the file, the variable's
    /// part after `LIFECYCLED_` for the environment) and of `others`, the closest (`NearestName`); else the
    /// name of the setting whose flag it spells, where the flag is not the key (`tokens`: `tokens-file`).
    static func meant(by typed: String, others: [String] = [], form: (String) -> String) -> String? {
        let names = all.map { form($0.key) } + others
        if let nearest = NearestName.among(names, to: typed) { return nearest }
        let flagged = all.first { setting in setting.flag.map { form(String($0.dropFirst(2))) == typed } ?? false }
        return flagged.map { form($0.key) }
    }
}
