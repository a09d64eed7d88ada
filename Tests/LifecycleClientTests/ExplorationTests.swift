import Foundation
import LifecycleClient
import LifecycleCore
import LifecycleEmbedded
import LifecycleTesting
import Testing

/// An analytics session per time in front, with a bug: the session is closed when the app enters the
/// background, not when it resigns active, so resigning and becoming active again without going to the
/// background (a declined call, Notification Center pulled down and put back) opens a second session over the
/// first. `correct` closes it where it should. The delegate's own `expect` says a session never opens twice.
final class SessionDelegate: LiveApplicationDelegate {
    private var open = false
    private let correct: Bool

    init(correct: Bool = false) { self.correct = correct }

    func application(_ application: LiveApplication, didFinishLaunchingWithOptions options: [String: JSONValue])
        -> Bool
    { true }

    func applicationDidBecomeActive(_ application: LiveApplication) {
        application.expect(!open, "a session opened while one was open")
        open = true
    }

    func applicationWillResignActive(_ application: LiveApplication) {
        if correct { open = false }
    }

    func applicationDidEnterBackground(_ application: LiveApplication) { open = false }
}

/// `Exploration`: `lifecycled explore` from Swift, in process, on an embedded daemon and on a daemon over HTTP,
/// and with live delegates whose assertions count.
@Suite struct ExplorationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func example() throws -> Exploration {
        let text = try String(
            contentsOf: root.appendingPathComponent("examples/explore/background-task.json"), encoding: .utf8)
        var exploration = Exploration(world: text)
        exploration.walks = 50
        exploration.steps = 50
        exploration.versions = ["9.0", "17.0"]
        return exploration
    }

    static let liveWorld = #"""
        {"name": "a session per time in front", "source": "LIFECYCLE §13", "steps": [
          {"do": "POST /v1/devices", "body": {"id": "d", "clock": {"mode": "manual"}, "iosVersion": "16.0"}},
          {"do": "POST /v1/apps", "body": {"id": "a", "device": "d", "bundleId": "com.example.sessions",
                                          "delegate": {"live": true}}}]}
        """#

    @Test("the same seed gives the same finding in process, on an embedded daemon and over HTTP, byte for byte")
    func theSameSeedGivesTheSameFindingEverywhere() throws {
        let exploration = try Self.example()
        let local = try exploration.run()
        let failure = try #require(local.failure, "the example's property is false")
        #expect(failure.scenario.contains(#""$none""#) && failure.shrunk.count <= 4, "\(failure.scenario)")

        let embedded = try EmbeddedDaemon()
        defer { embedded.stop() }
        #expect(try embedded.explore(exploration, namespace: "explore-embedded") == local)

        let server = try TestDaemon(transport: .live)
        defer { server.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let remote = try exploration.run(url: url, namespace: "explore-http")
        #expect(remote == local)
        #expect(remote.failure?.scenario == local.failure?.scenario)
        #expect(remote.failure?.found == local.failure?.found)
    }

    @Test("a namespace explore cannot empty, and a world it cannot run, are named")
    func wrongTargetsAreNamed() throws {
        let embedded = try EmbeddedDaemon()
        defer { embedded.stop() }
        let error = #expect(throws: ExplorationError.self) {
            try embedded.explore(try Self.example(), namespace: "default")
        }
        #expect(error?.description.contains("not default") == true)
        let live = Exploration(world: Self.liveWorld)
        let noDelegate = #expect(throws: ExplorationError.self) { try live.run() }
        #expect(noDelegate?.description.contains("app a is live: explore needs its delegate") == true)
        var remote = live
        remote.delegates["a"] = { SessionDelegate() }
        let onDaemon = #expect(throws: ExplorationError.self) { try embedded.explore(remote) }
        #expect(onDaemon?.description.contains("in process only") == true, "\(onDaemon?.description ?? "")")
    }

    @Test("a live delegate's own assertion is a property: the sequence that breaks it is found and shrunk")
    func aLiveDelegatesAssertionIsFoundFalseAndShrunk() throws {
        var exploration = Exploration(world: Self.liveWorld)
        exploration.walks = 50
        exploration.steps = 40
        exploration.delegates["a"] = { SessionDelegate() }
        let result = try exploration.run()
        let failure = try #require(result.failure, "\(result.walks) walks, \(result.events) events")
        #expect(failure.property == "the live delegates' assertions")
        #expect(failure.message.contains("a session opened while one was open (in applicationDidBecomeActive:"))
        #expect(failure.shrunk.count <= 4 && failure.shrunk.count < failure.found.count, "\(failure.shrunk)")
        #expect(!failure.shrunk.contains { $0.contains("homeButton") }, "\(failure.shrunk)")
        #expect(try exploration.run() == result, "the same seed, the same finding")

        exploration.delegates["a"] = { SessionDelegate(correct: true) }
        let fixed = try exploration.run()
        #expect(fixed.failure == nil, "\(fixed.failure?.message ?? "")")
        #expect(fixed.walks == 50 && fixed.events > 50 * 10)
    }
}
