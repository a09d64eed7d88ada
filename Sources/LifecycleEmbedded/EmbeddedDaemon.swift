import Foundation
import HTTPServer
public import LifecycleClient
public import LifecycleDaemon
public import Logging

/// A daemon inside the test process, in memory, reached by the same `LifecycledClient` as a running one: no
/// port, no process, nothing to start beforehand.
///
///     let daemon = try EmbeddedDaemon()
///     defer { daemon.stop() }
///     let lifecycled = daemon.client(namespace: "my-suite")
///
/// Each daemon is a world of its own: two test suites each with theirs never see each other's apps.
public final class EmbeddedDaemon: Sendable {
    public let daemon: Daemon
    /// The URL the clients are given: only their paths are read.
    private static let url = URL(string: "http://embedded.lifecycled")!

    /// A daemon of `configuration` (its store is always memory: an embedded daemon keeps nothing on disk).
    public init(configuration: DaemonConfiguration = DaemonConfiguration(), logLevel: Logger.Level = .error) throws {
        var configuration = configuration
        configuration.store = .memory
        var logger = Logger(label: "lifecycled.embedded")
        logger.logLevel = logLevel
        daemon = try Daemon(configuration: configuration, logger: logger)
        _ = try daemon.recover()
    }

    /// A client bound to `namespace` (created by its first use), as `LifecycledClient(url:namespace:token:)`.
    public func client(namespace: String = "default", token: String? = nil) -> LifecycledClient {
        LifecycledClient(
            url: Self.url,
            transport: InProcessTransport(
                exchange: InProcessExchange(responder: daemon.service),
                maxBodyBytes: daemon.configuration.http.maxBodyBytes),
            namespace: namespace, token: token)
    }

    /// Stops it; clients' requests then fail.
    public func stop() { daemon.stop() }
}
