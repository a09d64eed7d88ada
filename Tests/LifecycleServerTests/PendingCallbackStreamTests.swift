import Foundation
import LifecycleApplication
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// The app's and the device's event streams tell of a live callback waiting for its answer over HTTP
/// (`event: pending-callback`, the JSON `GET .../pending-callback` answers) and of its end
/// (`event: pending-callback-ended`: answered, timed out, or abandoned).
@Suite(.serialized) struct PendingCallbackStreamTests {
    typealias Background = LiveAnswersOverHTTPTests.Background

    static func json(_ event: ServerSentEvent) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] ?? [:]
    }

    /// The next `pending-callback` or `pending-callback-ended` event of `stream`, past entries and comments.
    static func nextAnnouncement(_ stream: EventStreamClient) throws -> ServerSentEvent? {
        try stream.events { $0.event.hasPrefix("pending-callback") }.last
    }

    @Test func aPendingCallbackIsAnnouncedWithTheJSONItsReadAnswersThenItsEnd() throws {
        try withDaemon(transport: .live, configure: { $0.liveAnswerTimeout = 2 }) { server in
            try LiveAnswersOverHTTPTests.liveApp(server)
            let appStream = try EventStreamClient(port: server.port, path: "/v1/apps/a/timeline")
            let deviceStream = try EventStreamClient(port: server.port, path: "/v1/devices/d1/timeline")
            #expect(eventually { server.service.openEventStreams == 2 })
            let launch = Background { try server.post("/v1/apps/a/events", #"{"type": "launch"}"#) }

            // The first callback: announced on both streams as the read shows it, then answered.
            let announced = try #require(try Self.nextAnnouncement(appStream))
            #expect(announced.event == "pending-callback")
            #expect(announced.id == nil, "an announcement is not an entry: it moves no Last-Event-ID")
            let read = try server.get("/v1/apps/a/pending-callback")
            let pending = try #require(read.object["pending"] as? [String: Any])
            #expect(canonical(Self.json(announced)) == canonical(pending))
            let onDevice = try #require(try Self.nextAnnouncement(deviceStream))
            #expect(canonical(Self.json(onDevice)) == canonical(pending))
            let id = try #require(pending["id"] as? Int)
            #expect(pending["selector"] as? String == "application:willFinishLaunchingWithOptions:")
            #expect(try server.post("/v1/apps/a/pending-callback", #"{"callback": \#(id)}"#).status == 200)
            let answered = try #require(try Self.nextAnnouncement(appStream))
            #expect(answered.event == "pending-callback-ended")
            #expect(canonical(Self.json(answered)) == canonical(["id": id, "app": "a", "outcome": "answered"]))

            // The next one is left unanswered: it times out, and the stream says so.
            let next = try #require(try Self.nextAnnouncement(appStream))
            #expect(next.event == "pending-callback")
            let nextID = try #require(Self.json(next)["id"] as? Int)
            #expect(nextID == id + 1)
            let timedOut = try #require(try Self.nextAnnouncement(appStream))
            #expect(canonical(Self.json(timedOut)) == canonical(["id": nextID, "app": "a", "outcome": "timedOut"]))
            #expect(try launch.wait().status == 200)
        }
    }

    /// A stream opened while a callback waits is told of it first; the app's deletion ends it as abandoned.
    @Test func aStreamOpenedWhileACallbackWaitsIsToldOfItAndOfItsAbandonment() throws {
        try withDaemon(transport: .live, configure: { $0.liveAnswerTimeout = 60 }) { server in
            let launch = try PendingCallbackDeletionTests.waitingLaunch(server)
            let stream = try EventStreamClient(port: server.port, path: "/v1/devices/d1/timeline")
            let announced = try #require(try Self.nextAnnouncement(stream))
            #expect(announced.event == "pending-callback")
            let id = try #require(Self.json(announced)["id"] as? Int)
            #expect(try server.delete("/v1/apps/a").status == 204)
            let ended = try #require(try Self.nextAnnouncement(stream))
            #expect(canonical(Self.json(ended)) == canonical(["id": id, "app": "a", "outcome": "abandoned"]))
            #expect(try launch.wait().status == 200)
        }
    }

    /// Another app's callbacks are not announced on an app's stream.
    @Test func anAppsStreamAnnouncesOnlyItsOwnCallbacks() throws {
        try withDaemon(transport: .live, configure: { $0.liveAnswerTimeout = 60 }) { server in
            try LiveAnswersOverHTTPTests.liveApp(server)
            try server.createApp(#"{"id": "b", "device": "d1", "bundleId": "com.example.b"}"#)
            let stream = try EventStreamClient(port: server.port, path: "/v1/apps/b/timeline")
            #expect(eventually { server.service.openEventStreams == 1 })
            let launch = try PendingCallbackDeletionTests.waitingLaunch(server, creating: false)
            _ = try LiveAnswersOverHTTPTests.answerAll(server, app: "a", until: launch)
            #expect(try launch.wait().status == 200)
            #expect(try server.delete("/v1/apps/b").status == 204)
            let events = try stream.events { $0.event == "end" }
            #expect(events.map(\.event) == ["end"])
        }
    }
}
