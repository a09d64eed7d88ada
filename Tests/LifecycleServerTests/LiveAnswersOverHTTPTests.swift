import Dispatch
import Foundation
import LifecycleApplication
import LifecycleTesting
import Locking
import Testing

@testable import LifecycleServer

/// Live delegates answered over HTTP (LIFECYCLE §13): the callback a live app waits on is read from
/// `GET .../pending-callback` and answered by one `POST`; the events POST that caused it completes once its
/// callbacks are answered; a callback left unanswered past `--live-answer-timeout` hangs; and a device waiting on
/// its delegate holds up nobody else.
@Suite(.serialized) struct LiveAnswersOverHTTPTests {
    /// Runs `body` on a thread of its own; `wait()` gives what it returned.
    final class Background<T: Sendable>: Sendable {
        private let result = Protected<Result<T, any Error>?>(nil)
        private let finished = DispatchSemaphore(value: 0)

        init(_ body: @escaping @Sendable () throws -> T) {
            // A thread of its own: a blocked request must not take a worker the daemon in this process shares.
            Thread { [self] in
                let outcome = Result { try body() }
                result.withLock { $0 = outcome }
                finished.signal()
            }.start()
        }

        var isDone: Bool { result.withLock { $0 != nil } }

        func wait() throws -> T {
            finished.wait()
            finished.signal()
            return try result.withLock { $0! }.get()
        }
    }

    static func liveApp(_ server: TestDaemon, device: String = "d1", app: String = "a") throws {
        try server.createDevice(#"{"id": "\#(device)", "iosVersion": "14.0"}"#)
        try server.createApp(
            #"{"id": "\#(app)", "device": "\#(device)", "bundleId": "com.example.live", "iosVersion": "12.0", "delegate": {"live": true}}"#
        )
    }

    /// Answers every callback of app `app` with `answer(selector)` until `posting` is done; the selectors answered.
    static func answerAll(
        _ server: TestDaemon, app: String, until posting: Background<Reply>, wait: Double = 1,
        _ answer: (String) -> String = { _ in "" }
    ) throws -> [String] {
        var answered: [String] = []
        while !posting.isDone {
            let read = try server.get("/v1/apps/\(app)/pending-callback?wait=\(wait)")
            try #require(read.status == 200, "GET pending-callback answered \(read.status): \(read.text)")
            guard let pending = read.object["pending"] as? [String: Any] else {
                if wait == 0 { usleep(2000) }
                continue
            }
            let id = try #require(pending["id"] as? Int)
            let selector = try #require(pending["selector"] as? String)
            let extra = answer(selector)
            let posted = try server.post(
                "/v1/apps/\(app)/pending-callback", #"{"callback": \#(id)\#(extra.isEmpty ? "" : ", " + extra)}"#)
            try #require(posted.status == 200, "POST pending-callback answered \(posted.status): \(posted.text)")
            answered.append(selector)
        }
        return answered
    }

    @Test func eachCallbackIsReadAndAnsweredOverHTTPAndTheEventsPostCompletesAfterIt() throws {
        try withDaemon(transport: .live) { server in
            try Self.liveApp(server)
            let launch = Background { try server.post("/v1/apps/a/events", #"{"type": "launch"}"#) }
            let answered = try Self.answerAll(server, app: "a", until: launch)
            #expect(try launch.wait().status == 200)
            #expect(answered.contains("application:didFinishLaunchingWithOptions:"))
            let callbacks = try server.get("/v1/apps/a/callbacks").items.compactMap { $0["selector"] as? String }
            #expect(callbacks == answered)
            #expect(try server.get("/v1/apps/a").string("state") == "active")

            // Home: the delegate takes 2 s in the background and begins a task there.
            let home = Background { try server.post("/v1/apps/a/events", #"{"type": "homeButton"}"#) }
            let second = try Self.answerAll(server, app: "a", until: home) { selector in
                selector == "applicationDidEnterBackground:"
                    ? #""duration": 2, "actions": [{"do": "beginBackgroundTask", "name": "save"}]"# : ""
            }
            #expect(try home.wait().status == 200)
            #expect(second.contains("applicationDidEnterBackground:"))
            let entered = try server.get("/v1/apps/a/callbacks").items.first {
                $0["selector"] as? String == "applicationDidEnterBackground:"
            }
            #expect(entered?["duration"] as? Double == 2)
            let timeline = try server.get("/v1/apps/a/timeline").items
            #expect(timeline.contains { $0["kind"] as? String == "backgroundTask" && $0["name"] as? String == "save" })
        }
    }

    /// A read like every other: its `ETag`, and `304` to a client that names it.
    @Test func theReadCarriesAnETagAndAnswers304ToItsOwnTag() throws {
        try withDaemon(transport: .live) { server in
            try Self.liveApp(server)
            let read = try server.get("/v1/apps/a/pending-callback")
            #expect(read.status == 200)
            let tag = try #require(read.header("ETag"), "no ETag on \(read.text)")
            #expect(try server.get("/v1/apps/a/pending-callback", headers: [("If-None-Match", tag)]).status == 304)
            #expect(try server.get("/v1/apps/a/pending-callback", headers: [("If-None-Match", "\"x\"")]).status == 200)
        }
    }

    @Test func aPendingCallbackShowsItsArgumentsStateAndDeadline() throws {
        try withDaemon(transport: .live) { server in
            try Self.liveApp(server)
            let before = Date().timeIntervalSince1970
            let launch = Background { try server.post("/v1/apps/a/events", #"{"type": "launch"}"#) }
            let read = try server.get("/v1/apps/a/pending-callback?wait=5")
            let pending = try #require(read.object["pending"] as? [String: Any])
            #expect(pending["app"] as? String == "a")
            #expect(pending["state"] as? String == "inactive")
            #expect(pending["args"] is [String: Any])
            #expect(pending["time"] as? Double == 0)
            let deadline = try #require(pending["deadline"] as? Double)
            #expect(deadline > before && deadline <= Date().timeIntervalSince1970 + 10)
            _ = try Self.answerAll(server, app: "a", until: launch)
            #expect(try launch.wait().status == 200)
            // Nothing pending now: a read without wait answers at once.
            #expect(try server.get("/v1/apps/a/pending-callback").object["pending"] is NSNull)
        }
    }

    @Test func aBadAnswerIsRefusedWithAProblemAndChangesNothing() throws {
        try withDaemon(transport: .live) { server in
            try Self.liveApp(server)
            try server.createApp(#"{"id": "scripted", "device": "d1", "bundleId": "com.example.s"}"#)
            expectProblem(
                try server.post("/v1/apps/a/pending-callback", #"{"callback": 1}"#), status: 409,
                code: "invalid-transition")
            expectProblem(
                try server.get("/v1/apps/scripted/pending-callback"), status: 409, code: "invalid-transition")
            expectProblem(try server.get("/v1/apps/nope/pending-callback"), status: 404, code: "not-found")
            expectProblem(try server.get("/v1/apps/a/pending-callback?wait=-1"), status: 400, code: "invalid-field")

            let launch = Background { try server.post("/v1/apps/a/events", #"{"type": "launch"}"#) }
            let read = try server.get("/v1/apps/a/pending-callback?wait=5")
            let id = try #require((read.object["pending"] as? [String: Any])?["id"] as? Int)
            let bad: [(String, String)] = [
                (#"{}"#, "callback"),
                (#"{"callback": \#(id), "duration": -1}"#, "duration"),
                (#"{"callback": \#(id), "duration": "slow"}"#, "duration"),
                (#"{"callback": \#(id), "returns": 1}"#, "returns"),
                (#"{"callback": \#(id), "actions": [{"do": "fly"}]}"#, "actions[0].do"),
                (#"{"callback": \#(id), "actionz": []}"#, "actionz"),
            ]
            for (body, field) in bad {
                let refused = try server.post("/v1/apps/a/pending-callback", body)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == field, "\(body)")
            }
            let other = try server.post("/v1/apps/a/pending-callback", #"{"callback": \#(id + 1)}"#)
            expectProblem(other, status: 409, code: "invalid-transition")
            #expect(other.string("detail")?.contains("waits on callback \(id)") == true)
            // Still pending, and still the same callback: nothing was taken.
            let again = try server.get("/v1/apps/a/pending-callback")
            #expect((again.object["pending"] as? [String: Any])?["id"] as? Int == id)
            _ = try Self.answerAll(server, app: "a", until: launch)
            #expect(try launch.wait().status == 200)
        }
    }

    @Test func anUnansweredCallbackHangsAtTheTimeoutAndALateAnswerIsRefused() throws {
        try withDaemon(transport: .live, configure: { $0.liveAnswerTimeout = 0.5 }) { server in
            try Self.liveApp(server)
            let launch = Background { try server.post("/v1/apps/a/events", #"{"type": "launch"}"#) }
            let read = try server.get("/v1/apps/a/pending-callback?wait=5")
            let id = try #require((read.object["pending"] as? [String: Any])?["id"] as? Int)
            #expect(try launch.wait().status == 200)
            let late = try server.post("/v1/apps/a/pending-callback", #"{"callback": \#(id)}"#)
            expectProblem(late, status: 409, code: "invalid-transition")
            #expect(try server.get("/v1/apps/a").string("state") == "notRunning")
            let timeline = try server.get("/v1/apps/a/timeline").items
            let terminated = timeline.last { $0["kind"] as? String == "termination" }
            #expect(terminated?["reason"] as? String == "watchdog")
        }
    }

    /// A device waiting on its live delegate holds only its own queue: another device's events POST, and reads
    /// of the waiting devices, answer at once, however many devices wait (more than the workers the device
    /// queues share).
    @Test(arguments: [1, 24]) func hungDelegatesDoNotDelayAnotherDevicesPost(waiting: Int) throws {
        try withDaemon(transport: .live, configure: { $0.liveAnswerTimeout = 60 }) { server in
            let hung = try (0..<waiting).map { index in
                try Self.liveApp(server, device: "d\(index)", app: "a\(index)")
                let posting = Background { try server.post("/v1/apps/a\(index)/events", #"{"type": "launch"}"#) }
                // The live app's device now waits on its delegate.
                let read = try server.get("/v1/apps/a\(index)/pending-callback?wait=5")
                try #require(read.object["pending"] is [String: Any], "device \(index) waits: \(read.text)")
                return posting
            }
            try server.createDevice(#"{"id": "other", "iosVersion": "14.0"}"#)
            try server.createApp(#"{"id": "b", "device": "other", "bundleId": "com.example.b"}"#)
            let started = Date()
            try server.postEvents("/v1/apps/b/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            #expect(try server.get("/v1/apps/a0").status == 200)
            #expect(try server.get("/v1/devices/d0").status == 200)
            let took = Date().timeIntervalSince(started)
            #expect(took < 1, "another device's POST and reads took \(took) s behind \(waiting) hung delegates")
            #expect(hung.last?.isDone == false, "the last device still waits on its delegate")
            for (index, posting) in hung.enumerated() {
                _ = try Self.answerAll(server, app: "a\(index)", until: posting, wait: 0)
                #expect(try posting.wait().status == 200)
            }
        }
    }
}
