import Foundation
import LifecycleApplication
import LifecycleTesting
import Testing

@testable import LifecycleServer

/// `lifecycled check --url --token` under a pipeline's token, good for its namespaces only: with
/// `--namespace-prefix` the namespaces it makes for each scenario are the token's, and the repository's
/// scenarios pass; with the default prefix every step is refused.
@Suite struct CheckUnderScopedTokenTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built `lifecycled` beside this test binary (the same build folder), else the repository's debug build.
    static var binary: URL? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("lifecycled")
        let debug = repository.appendingPathComponent(".build/debug/lifecycled")
        return [beside, debug].first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "lifecycled is not built beside the tests nor in .build/debug" }
    }

    func check(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        guard let binary = Self.binary else { throw NotBuilt() }
        process.executableURL = binary
        process.arguments = ["check"] + arguments
        process.currentDirectoryURL = Self.repository
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func theRepositoryScenariosPassUnderATokenForTeamCINamespacesOnly() throws {
        let secret = TokenMinter.newSecret()
        let tokens = TokensLiveTests.table([("team-ci", secret, .write, ["team-ci-*"])])
        try withDaemon(transport: .live, tokens: tokens) { server in
            let common = ["--url", "http://127.0.0.1:\(server.port)", "--token", secret, "--parallel", "4"]
            let suites = ["Tests/Conformance/scenarios", "Tests/Conformance/scenes"]
            let scoped = try check(common + ["--namespace-prefix", "team-ci-"] + suites)
            #expect(scoped.status == 0, "\(scoped.output)")
            #expect(scoped.output.hasSuffix(" passed, 0 failed\n"), "\(scoped.output)")
            // Each scenario's namespace was deleted after it.
            let left = try server.get("/v1/namespaces", headers: [("Authorization", "Bearer \(secret)")])
            #expect((left.object["items"] as? [Any])?.isEmpty == true, "\(left.text)")

            let unscoped = try check(common + [suites[0]])
            #expect(unscoped.status == 1)
            #expect(unscoped.output.contains("403"), "\(unscoped.output)")
            let wrong = try check(common + ["--namespace-prefix", "Team_CI", suites[0]])
            #expect(wrong.status == 64, "\(wrong.output)")
        }
    }
}
