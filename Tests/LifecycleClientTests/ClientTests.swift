import Foundation
import LifecycleApplication
import LifecycleClient
import LifecycleCore
import LifecycleEmbedded
import LifecycleOpenAPI
import LifecycleServer
import LifecycleTesting
import TestSupport
import Testing

/// The Swift client as a team's tests use it: remote (URLSession to a daemon on a port, with a namespace's
/// token) and embedded (the daemon in this process), through the same calls.
@Suite struct ClientTests {
    static let secret = TokenMinter.newSecret()
    static let tokens: TokenTable = {
        let line = try! TokenFile.line(name: "ci", secret: secret, role: .write, namespaces: ["ci-*"])
        return TokenTable(try! TokenFile.parse(Array("{\"tokens\": [\(line)]}".utf8)))
    }()

    /// Creates, drives and follows an app in a namespace: what both kinds of client must do alike.
    static func drive(_ lifecycled: LifecycledClient) async throws {
        try await lifecycled.createDevice(id: "phone", iosVersion: "12.4")
        let mail = try await lifecycled.createApp(id: "mail", bundleId: "com.example.mail", device: "phone")

        // Follow its callbacks while it is driven.
        let updates = Task {
            var seen: [String] = []
            for try await callback in mail.callbackUpdates() {
                seen.append(callback.selector)
                if callback.selector == "applicationDidEnterBackground:" { break }
            }
            return seen
        }
        try await mail.send(.launch)
        try await lifecycled.device("phone").send(.homeButton)
        try await mail.waitUntil(.suspended, timeout: .seconds(10))

        let expected = [
            "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
            "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:",
        ]
        #expect(try await mail.callbacks().items.map(\.selector) == expected)
        #expect(try await updates.value == expected)
        // The daemon checks them too: exactly, as a subsequence, and where they first differ.
        #expect(try await mail.verify(expected).checked == 5)
        try await mail.verify([expected[1], expected[4]], match: .subsequence)
        let differs = await #expect(throws: LifecycledProblem.self) {
            try await mail.verify(Array(expected.reversed()))
        }
        #expect(differs?.code == "verification-failed" && differs?.document.index == 0)
        #expect(try await mail.get().state == .suspended)

        // moveTo takes the path the daemon chooses, and says which.
        let moved = try await mail.moveTo(.active)
        #expect(moved.app.state == .active)
        #expect(moved.applied?.isEmpty == false)

        // A refused event is thrown as its problem document.
        let refused = await #expect(throws: LifecycledProblem.self) {
            try await mail.send(.endBackgroundTask(task: 99))
        }
        #expect(refused?.status == 409 && refused?.code == "invalid-transition")
        #expect(refused?.document.state == "active")
        let missing = await #expect(throws: LifecycledProblem.self) { try await lifecycled.app("nope").get() }
        #expect(missing?.status == 404 && missing?.code == "not-found")
    }

    @Test func anEmbeddedDaemonIsDrivenThroughTheClient() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        try await Self.drive(daemon.client(namespace: "ci-embedded"))
        // Another namespace of the same daemon sees none of it.
        let other = daemon.client(namespace: "elsewhere")
        let missing = await #expect(throws: LifecycledProblem.self) { try await other.app("mail").get() }
        #expect(missing?.status == 404)
    }

    @Test func aRunningDaemonIsDrivenThroughTheClientWithAToken() async throws {
        let server = try TestDaemon(transport: .live, tokens: Self.tokens)
        defer { server.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        try await Self.drive(LifecycledClient(url: url, namespace: "ci-remote", token: Self.secret))
        // Without the token, or outside its namespaces, the problem says so.
        let anonymous = LifecycledClient(url: url, namespace: "ci-remote")
        let unauthorized = await #expect(throws: LifecycledProblem.self) { try await anonymous.app("mail").get() }
        #expect(unauthorized?.status == 401)
        let outside = LifecycledClient(url: url, namespace: "prod", token: Self.secret)
        let forbidden = await #expect(throws: LifecycledProblem.self) { try await outside.app("mail").get() }
        #expect(forbidden?.status == 403)
    }

    @Test func waitingForAStateThatDoesNotComeEndsAtItsTimeout() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        let lifecycled = daemon.client()
        let app = try await lifecycled.createApp(id: "a", bundleId: "com.example.a")
        let started = ContinuousClock.now
        await #expect(throws: WaitTimedOut.self) { try await app.waitUntil(.active, timeout: .milliseconds(300)) }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }

    @Test func timelinesDevicesDeletionAndReset() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        let lifecycled = daemon.client(namespace: "ci-more")
        let phone = try await lifecycled.createDevice(id: "phone")
        #expect(try await phone.get().id == "phone")
        let app = try await lifecycled.createApp(id: "a", bundleId: "com.example.a", device: "phone")
        let kinds = Task {
            var seen: [String] = []
            for try await entry in app.timelineUpdates() {
                if case .state(let state) = entry {
                    seen.append(state.to.rawValue)
                    if state.to == .suspended { break }
                }
            }
            return seen
        }
        try await app.send([.launch], idempotencyKey: "k1")
        // A retry with the same key is answered from the first answer, applying nothing twice.
        try await app.send([.launch], idempotencyKey: "k1")
        try await phone.send(.homeButton)
        #expect(try await kinds.value == ["inactive", "active", "inactive", "background", "suspended"])
        #expect(try await phone.timeline().items.contains { if case .device = $0 { true } else { false } })
        #expect(try await app.timeline(limit: 2).items.count == 2)

        try await app.delete()
        await #expect(throws: LifecycledProblem.self) { try await app.get() }
        try await lifecycled.createApp(id: "b", bundleId: "com.example.b", device: "phone")
        try await lifecycled.reset()
        await #expect(throws: LifecycledProblem.self) { try await phone.get() }
        await #expect(throws: LifecycledProblem.self) { try await lifecycled.app("b").get() }
    }

    @Test func aNamespaceExportedImportsIntoAnotherThroughTheClient() async throws {
        let daemon = try EmbeddedDaemon()
        defer { daemon.stop() }
        let source = daemon.client(namespace: "ci-source")
        let mail = try await source.createApp(id: "mail", bundleId: "com.example.mail")
        try await mail.send(.launch, .homeButton)
        let scenario = try await source.export()
        #expect(scenario.namespace == "ci-source")
        let copy = daemon.client(namespace: "ci-copy")
        let result = try await copy.importScenario(scenario)
        #expect(result.apps == ["mail"] && result.expectations == .checked)
        let original = try await mail.callbacks().items.map(\.selector)
        #expect(original.count == 5)
        #expect(try await copy.app("mail").callbacks().items.map(\.selector) == original)
        // Imported again, the app exists: nothing of the second import stays, and the problem says where.
        let again = await #expect(throws: LifecycledProblem.self) { try await copy.importScenario(scenario) }
        #expect(again?.code == "import-failed" && again?.document.step == 1)
    }

    /// A stream opened while the daemon is still recovering its data (`503 not-ready`) waits for it, then reads.
    @Test(.timeLimit(.minutes(1)))
    func aStreamOpenedWhileTheDaemonRecoversConnectsOnceItIsReady() async throws {
        try await withTemporaryDirectory { directory in
            let (first, mail) = try await journaledDaemonWithMail(in: directory, namespace: "ci-recovering")
            let port = first.port
            try await mail.send(.launch)
            first.stop()
            let starting = try TestDaemon(
                store: .sqlite(directory: directory), transport: .live, port: port, recovered: false)
            defer { starting.stop() }
            #expect(try starting.get("/v1/namespaces/ci-recovering/apps/mail").status == 503)
            var callbacks = mail.callbackUpdates().makeAsyncIterator()
            // The stream meets the 503 before the daemon is ready: the daemon counts it.
            let refused = "lifecycled_http_requests_total{route=\"appCallbacks\",status=\"503\"} "
            #expect(
                eventually {
                    let text = (try? starting.get("/metrics").text) ?? ""
                    let line = text.split(separator: "\n").first { $0.hasPrefix(refused) }
                    return line.flatMap { Int($0.dropFirst(refused.count)) }.map { $0 >= 1 } ?? false
                })
            try starting.recover()
            let callback = try await callbacks.next()
            #expect(callback?.selector == "application:willFinishLaunchingWithOptions:")
        }
    }

    /// A stream from a running daemon survives the daemon's restart: it connects again with `Last-Event-ID`
    /// and goes on where it was, nothing lost and nothing twice.
    @Test(.timeLimit(.minutes(1)))
    func aStreamGoesOnAcrossARestartOfTheDaemon() async throws {
        try await withTemporaryDirectory { directory in
            let (first, mail) = try await journaledDaemonWithMail(in: directory, namespace: "ci-restart")
            var server = first
            let port = server.port
            var callbacks = mail.callbackUpdates().makeAsyncIterator()
            var seqs: [Int] = []
            try await mail.send(.launch)
            while let callback = try await callbacks.next() {
                seqs.append(callback.seq)
                if callback.selector == "applicationDidBecomeActive:" { break }
            }
            server.stop()
            server = try TestDaemon(store: .sqlite(directory: directory), transport: .live, port: port)
            defer { server.stop() }
            try await mail.send(.homeButton)
            while let callback = try await callbacks.next() {
                seqs.append(callback.seq)
                if callback.selector == "applicationDidEnterBackground:" { break }
            }
            let all = try await mail.callbacks().items.map(\.seq)
            #expect(seqs == all, "the stream saw \(seqs), the app recorded \(all)")
            #expect(all.count == 5)
        }
    }

    /// A daemon over HTTP that journals into `directory`, and the app `mail` created in `namespace` through the
    /// client: what the restart tests start from.
    private func journaledDaemonWithMail(
        in directory: String, namespace: String
    ) async throws -> (TestDaemon, AppHandle) {
        let daemon = try TestDaemon(store: .sqlite(directory: directory), transport: .live)
        do {
            let url = try #require(URL(string: "http://127.0.0.1:\(daemon.port)"))
            let mail = try await LifecycledClient(url: url, namespace: namespace)
                .createApp(id: "mail", bundleId: "com.example.mail")
            return (daemon, mail)
        } catch {
            daemon.stop()
            throw error
        }
    }
}
