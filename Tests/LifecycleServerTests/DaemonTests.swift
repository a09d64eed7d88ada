import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleDaemon
@testable import LifecycleServer
import LifecycleTesting
import Logging
import TestSupport
import Testing

/// The composition root: one configuration value, one set of defaults, the same daemon the executable runs.
@Suite struct DaemonTests {
    @Test func theDefaultsAreValidAndEachBoundIsChecked() {
        #expect(DaemonConfiguration().problem == nil)
        var configuration = DaemonConfiguration()
        configuration.http.port = 70_000
        #expect(configuration.problem == "--port must be from 0 to 65535")
        configuration = DaemonConfiguration()
        configuration.service.historyBytes = 1000
        #expect(configuration.problem == "--history-bytes must be 1048576 or more")
        configuration = DaemonConfiguration()
        configuration.http.host = "0.0.0.0"
        #expect(configuration.problem?.hasPrefix("--host 0.0.0.0 is not a loopback address") == true)
        configuration.allowUnauthenticated = true
        #expect(configuration.problem == nil)
    }

    @Test func aDaemonStartsAnswersAndStops() throws {
        try withTemporaryDirectory { directory in
            var configuration = DaemonConfiguration()
            configuration.store = .directory(directory)
            configuration.http.port = 0
            let daemon = try Daemon(configuration: configuration, logger: .init(label: "daemon-tests"))
            #expect(try daemon.start() == 0)
            let created = try BlockingHTTPClient.exchange(
                port: daemon.port, method: "POST", path: "/v1/devices",
                headers: [("Content-Type", "application/json")], body: Array(#"{"id": "d"}"#.utf8))
            #expect(created.status == 201)
            daemon.stop()
            #expect(!daemon.storeFailed)
            // What it made durable is there for the next daemon on the same directory.
            let again = try Daemon(configuration: configuration, logger: .init(label: "daemon-tests"))
            try again.start()
            let read = try BlockingHTTPClient.exchange(
                port: again.port, method: "GET", path: "/v1/devices/d", headers: [], body: [])
            #expect(read.status == 200)
            again.stop()
        }
    }

    @Test func aDaemonThatCannotStartSaysWhy() throws {
        var configuration = DaemonConfiguration()
        configuration.store = .memory
        configuration.tokensFile = "/nonexistent/tokens.json"
        #expect {
            try Daemon(configuration: configuration, logger: .init(label: "daemon-tests"))
        } throws: { error in
            "\(error)".hasPrefix("cannot read the tokens file /nonexistent/tokens.json")
        }
        configuration = DaemonConfiguration()
        configuration.http.threads = 0
        #expect {
            try Daemon(configuration: configuration, logger: .init(label: "daemon-tests"))
        } throws: { error in
            "\(error)" == "--threads must be from 1 to 64"
        }
        configuration = DaemonConfiguration()
        configuration.service.traceSlowMilliseconds = 60_001
        #expect {
            try Daemon(configuration: configuration, logger: .init(label: "daemon-tests"))
        } throws: { error in
            "\(error)" == "--trace-slow-ms must be from 0 (off) to 60000"
        }
    }

    /// Whoever may write the tokens file may give themselves any token; whoever may read it sees every token's
    /// hash: a file its group may write, or every user may read or write, stops the start. Its group may read it.
    @Test func aTokensFileOthersMayWriteIsRefused() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/tokens.json"
            try Data(#"{"tokens": []}"#.utf8).write(to: URL(fileURLWithPath: path))
            var configuration = DaemonConfiguration()
            configuration.store = .memory
            configuration.tokensFile = path
            for (mode, said) in [
                (0o620, "written by its group"), (0o602, "written by every user"), (0o604, "read by every user"),
                (0o666, "written by its group, and read and written by every user"),
            ] {
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
                #expect {
                    try Daemon(configuration: configuration, logger: .init(label: "daemon-tests"))
                } throws: { error in
                    "\(error)".contains("may be \(said) (mode \(String(mode, radix: 8)))")
                        && "\(error)".contains("chmod 600")
                }
            }
            for mode in [0o600, 0o640, 0o400] {
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
                try Daemon(configuration: configuration, logger: .init(label: "daemon-tests")).stop()
            }
        }
    }

    @Test func anAllowedOriginOfNullOrStarIsRefused() {
        for (origin, said) in [("null", "sandboxed"), ("NULL", "sandboxed"), ("*", "any web page")] {
            var configuration = DaemonConfiguration()
            configuration.http.allowedOrigins = ["http://localhost:3000", origin]
            let problem = configuration.firstProblem
            #expect(problem?.setting == "allowed-origins", "\(origin)")
            #expect(problem?.allowed.contains(said) == true, "\(problem?.allowed ?? "")")
        }
    }
}
