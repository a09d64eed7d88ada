import Foundation
import LifecycleClient
import LifecycleEmbedded
import LifecycleTesting
import Testing

// docs/CLIENTS.md, "Swift: the client library": the example, verbatim.
func mailSuspendsOnHome(_ lifecycled: LifecycledClient) async throws {
    let mail = try await lifecycled.createApp(id: "mail", bundleId: "com.example.mail")
    try await mail.send(.launch, .homeButton)
    try await mail.waitUntil(.suspended)
    let callbacks = try await mail.callbacks().items.map(\.selector)
    #expect(callbacks.last == "applicationDidEnterBackground:")
}

/// The Swift example of docs/CLIENTS.md runs as it is written, embedded and against a running daemon.
@Suite struct ClientsGuideExampleTests {
    @Test func theExampleRunsInsideTheTestProcess() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        try await mailSuspendsOnHome(daemon.client(namespace: "ci-42"))
    }

    @Test func theExampleRunsAgainstARunningDaemon() async throws {
        let server = try TestDaemon(transport: .live, tokens: ClientTests.tokens)
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        let token = ClientTests.secret
        try await mailSuspendsOnHome(LifecycledClient(url: url, namespace: "ci-42", token: token))
    }

    /// Every line of the guide's Swift blocks is in this file, so the example cannot drift from what runs.
    @Test func theGuideShowsThisFilesCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let guide = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("../../docs/CLIENTS.md").standardized,
            encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let section = try #require(guide.range(of: "## Swift: the client library"))
        let rest = guide[section.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        let blocks = rest[..<end].components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        #expect(blocks.count == 2)
        for line in blocks.joined().split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            #expect(source.contains(line.trimmingCharacters(in: .whitespaces)), "not in the test: \(line)")
        }
    }
}
