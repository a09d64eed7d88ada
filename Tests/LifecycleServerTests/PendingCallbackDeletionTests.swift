import Foundation
import LifecycleApplication
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// A callback waiting for its answer over HTTP does not hold up the app's or device's deletion, nor a drain
/// (LIFECYCLE §13): the wait ends at once, the callback hangs by the core's rule, the input that asked it is
/// journaled and answered, and then the deletion applies.
@Suite(.serialized) struct PendingCallbackDeletionTests {
    typealias Background = LiveAnswersOverHTTPTests.Background

    /// A launch of live app `a` (on device `d1`, created unless `creating` is false) waiting on its first
    /// callback, which nobody answers.
    static func waitingLaunch(_ server: TestDaemon, creating: Bool = true) throws -> Background<Reply> {
        if creating { try LiveAnswersOverHTTPTests.liveApp(server) }
        let launch = Background { try server.post("/v1/apps/a/events", #"{"type": "launch"}"#) }
        let read = try server.get("/v1/apps/a/pending-callback?wait=5")
        try #require(read.object["pending"] is [String: Any], "the launch waits on a callback: \(read.text)")
        return launch
    }

    @Test(arguments: ["/v1/apps/a", "/v1/devices/d1"])
    func deletingWhileACallbackIsPendingAnswersAtOnce(path: String) throws {
        try withDaemon(transport: .live, configure: { $0.liveAnswerTimeout = 60 }) { server in
            let launch = try Self.waitingLaunch(server)
            let started = Date()
            #expect(try server.delete(path).status == 204)
            let took = Date().timeIntervalSince(started)
            #expect(took < 2, "the deletion waited \(took) s for the pending callback")
            // The input that asked was applied with the callback hung (the watchdog's end), and answered.
            let launched = try launch.wait()
            #expect(launched.status == 200, "\(launched.text)")
            #expect(launched.text.contains("0x8badf00d"), "\(launched.text)")
            expectProblem(try server.get("/v1/apps/a/pending-callback"), status: 404, code: "not-found")
        }
    }

    /// A read parked on the app's next callback answers `404` as the deletion begins, not at its wait's end.
    @Test func aParkedReadAnswersNotFoundWhenTheAppIsDeleted() throws {
        try withDaemon(transport: .live) { server in
            try LiveAnswersOverHTTPTests.liveApp(server)
            let started = Date()
            let read = Background { try server.get("/v1/apps/a/pending-callback?wait=30") }
            #expect(eventually { server.service.parkedPolls == 1 })
            #expect(try server.delete("/v1/apps/a").status == 204)
            expectProblem(try read.wait(), status: 404, code: "not-found")
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }

    /// An app created again with a deleted one's id waits for its answers as any other.
    @Test func anAppCreatedAgainWithTheIdWaitsForAnswers() throws {
        try withDaemon(transport: .live, configure: { $0.liveAnswerTimeout = 60 }) { server in
            let launch = try Self.waitingLaunch(server)
            #expect(try server.delete("/v1/apps/a").status == 204)
            #expect(try launch.wait().status == 200)
            try server.createApp(
                #"{"id": "a", "device": "d1", "bundleId": "com.example.live", "iosVersion": "12.0", "delegate": {"live": true}}"#
            )
            let again = Background { try server.post("/v1/apps/a/events", #"{"type": "launch"}"#) }
            let answered = try LiveAnswersOverHTTPTests.answerAll(server, app: "a", until: again)
            #expect(answered.contains("application:didFinishLaunchingWithOptions:"))
            #expect(try again.wait().status == 200)
            #expect(try server.get("/v1/apps/a").string("state") == "active")
        }
    }

    /// A drain (SIGTERM) ends the wait at once; the input that asked is durable: a restart shows it applied.
    @Test func drainingWhileACallbackIsPendingKeepsTheInput() throws {
        try withTemporaryDirectory { directory in
            let server = try TestDaemon(
                store: .sqlite(directory: directory), transport: .live, configure: { $0.liveAnswerTimeout = 60 })
            let launch = try Self.waitingLaunch(server)
            let started = Date()
            server.stop()
            let took = Date().timeIntervalSince(started)
            #expect(took < 2, "the drain waited \(took) s for the pending callback")
            // Answered or not before the server stopped, the launch is journaled.
            _ = try? launch.wait()
            try withDaemon(store: .sqlite(directory: directory)) { restarted in
                let app = try restarted.get("/v1/apps/a")
                #expect(app.string("state") == "notRunning", "\(app.text)")
                #expect(app.nested("termination")["reason"] as? String == "watchdog", "\(app.text)")
            }
        }
    }
}
