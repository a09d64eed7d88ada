import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// Timelines and callbacks as `text/event-stream`, over real sockets: where they start, how they go on live,
/// and every way they end.
@Suite struct EventStreamTests {
    static let app = #"{"id": "a", "bundleId": "com.example.a", "iosVersion": "7.0"}"#

    static func json(_ event: ServerSentEvent) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] ?? [:]
    }

    /// Reads `count` events and requires them all to be entries.
    static func entries(_ stream: EventStreamClient, count: Int) throws -> [ServerSentEvent] {
        try (0..<count).map { _ in
            let event = try #require(try stream.nextEvent())
            try #require(event.event == "entry", "\(event)")
            return event
        }
    }

    @Test func aTimelineStreamStartsAfterTheCursorThenGoesOnLive() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(Self.app)
            try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
            let all = try server.allEntries("/v1/apps/a/timeline")
            let cut = seqs(all)[2]
            let stream = try EventStreamClient(port: server.port, path: "/v1/apps/a/timeline?after=\(cut)")
            #expect(stream.head.status == 200)
            #expect(stream.head.header("Content-Type") == "text/event-stream")
            #expect(stream.head.header("Cache-Control") == "no-cache")
            let retained = all.filter { ($0["seq"] as! NSNumber).intValue > cut }
            let sent = try Self.entries(stream, count: retained.count)
            #expect(sent.map(\.id) == seqs(retained).map { String($0) })
            #expect(sent.map { canonical(Self.json($0)) } == retained.map(canonical))

            // The answer also lists device-level entries, which the app's timeline does not hold.
            let home = try server.postEvents("/v1/apps/a/events", #"{"type": "homeButton"}"#).entries.filter {
                $0["app"] as? String == "a"
            }
            #expect(!home.isEmpty)
            let live = try Self.entries(stream, count: home.count)
            #expect(live.map(\.id) == seqs(home).map { String($0) })
            #expect(live.map { canonical(Self.json($0)) } == home.map(canonical))
        }
    }

    @Test func lastEventIDWinsOverAfterAsAReconnectingEventSourceSendsBoth() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(Self.app)
            try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
            let all = seqs(try server.allEntries("/v1/apps/a/callbacks"))
            let stream = try EventStreamClient(
                port: server.port, path: "/v1/apps/a/callbacks?after=0", headers: [("Last-Event-ID", "\(all[0])")])
            let sent = try Self.entries(stream, count: all.count - 1)
            #expect(sent.map(\.id) == all.dropFirst().map { String($0) })
            #expect(sent.allSatisfy { Self.json($0)["kind"] as? String == "callback" })
        }
    }

    @Test func aDeviceTimelineStreamCarriesEveryAppsEntries() throws {
        try withDaemon(transport: .live) { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
            let stream = try EventStreamClient(port: server.port, path: "/v1/devices/d/timeline")
            let before = try server.allEntries("/v1/devices/d/timeline")
            _ = try Self.entries(stream, count: before.count)
            let launch = try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
            let live = try Self.entries(stream, count: launch.entries.count)
            #expect(live.map(\.id) == seqs(launch.entries).map { String($0) })
        }
    }

    @Test func aCursorOlderThanWhatIsRetainedGetsGoneWithTheOldestSeqAndEnds() throws {
        try withDaemon(transport: .live, historyLimit: 5) { server in
            try server.createApp(Self.app)
            for _ in 0..<5 {
                try server.postEvents("/v1/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            }
            let oldest = try #require(seqs(try server.get("/v1/apps/a/timeline").items).first)
            let stream = try EventStreamClient(port: server.port, path: "/v1/apps/a/timeline?after=1")
            let gone = try #require(try stream.nextEvent())
            #expect(gone.event == "gone")
            #expect((Self.json(gone)["oldestSeq"] as? NSNumber)?.intValue == oldest)
            #expect(try stream.nextEvent() == nil)
        }
    }

    @Test func invalidCursorsAnswer400AndOpenNothing() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(Self.app)
            let stream = try EventStreamClient(
                port: server.port, path: "/v1/apps/a/timeline", headers: [("Last-Event-ID", "soon")])
            #expect(stream.head.status == 400)
            let unknown = try EventStreamClient(port: server.port, path: "/v1/apps/nope/timeline")
            #expect(unknown.head.status == 404)
            #expect(server.service.openEventStreams == 0)
        }
    }

    @Test func deletingTheAppEndsItsStream() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(Self.app)
            let stream = try EventStreamClient(port: server.port, path: "/v1/apps/a/callbacks")
            #expect(eventually { server.http.openStreams == 1 })
            #expect(try server.delete("/v1/apps/a").status == 204)
            let end = try #require(try stream.nextEvent())
            #expect(end.event == "end")
            #expect(Self.json(end)["reason"] as? String == "deleted")
            #expect(try stream.nextEvent() == nil)
            #expect(eventually { server.service.openEventStreams == 0 && server.http.openStreams == 0 })
        }
    }

    @Test func aResetEndsEveryStream() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(Self.app)
            let timeline = try EventStreamClient(port: server.port, path: "/v1/apps/a/timeline")
            let changes = try EventStreamClient(port: server.port, path: "/v1/changes")
            #expect(try changes.nextEvent()?.event == "snapshot")
            #expect(eventually { server.service.openEventStreams == 2 })
            #expect(try server.post("/v1/reset", "{}").status == 204)
            for stream in [timeline, changes] {
                let events = try stream.events { $0.event == "end" }
                #expect(events.last.map { Self.json($0)["reason"] as? String } == "reset")
                #expect(try stream.nextEvent() == nil)
            }
        }
    }

    @Test func aClientThatLeavesFreesItsStream() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(Self.app)
            do {
                let stream = try EventStreamClient(port: server.port, path: "/v1/apps/a/timeline")
                _ = try Self.entries(stream, count: try server.allEntries("/v1/apps/a/timeline").count)
                #expect(eventually { server.service.openEventStreams == 1 && server.http.openStreams == 1 })
            }  // the client closes its socket here, while its stream is suspended
            #expect(eventually { server.service.openEventStreams == 0 && server.http.openStreams == 0 })
            #expect(eventually { server.http.openConnections == 0 })
            #expect(server.service.eventStreams.count == 0)
        }
    }

    @Test func stoppingTheServerEndsStreamsCleanly() throws {
        // A grace long enough for a loaded machine: the stream's end must go out within it, and stop must not wait
        // it out once the stream has ended.
        let server = try TestDaemon(transport: .live, configureHTTP: { $0.stopGraceMilliseconds = 60_000 })
        defer { server.stop() }
        try server.createApp(Self.app)
        let stream = try EventStreamClient(port: server.port, path: "/v1/apps/a/callbacks")
        #expect(eventually { server.http.openStreams == 1 })
        let started = DispatchTime.now()
        let stopping = Background { server.stop() }
        let end = try #require(try stream.nextEvent())
        #expect(end.event == "end")
        #expect(Self.json(end)["reason"] as? String == "shutdown")
        #expect(try stream.nextEvent() == nil)
        try stopping.join()
        #expect(seconds(since: started) < 30, "stop waited out its grace though the stream had ended")
        #expect(server.http.openStreams == 0)
    }

    @Test func anIdleStreamGetsKeepAliveComments() throws {
        try withDaemon(transport: .live, configure: { $0.eventStreamKeepAliveSeconds = 0.1 }) { server in
            try server.createApp(Self.app)
            let stream = try EventStreamClient(port: server.port, path: "/v1/apps/a/callbacks")
            var comments = 0
            while comments < 2, let event = try stream.next() {
                if event.comment == "keep-alive" { comments += 1 }
            }
            #expect(comments == 2)
        }
    }

    @Test func twoHundredStreamsOnOneAppAllGetTheEvent() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(Self.app)
            let streams = try (0..<200).map { _ in
                try EventStreamClient(port: server.port, path: "/v1/apps/a/callbacks", timeoutSeconds: 10)
            }
            #expect(eventually(seconds: 10) { server.http.openStreams == 200 })
            // Nothing to send before the launch: the server holds them all suspended, no thread each.
            let launch = try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
            let first = try #require(launch.entries.first { $0["kind"] as? String == "callback" })
            for stream in streams {
                #expect(try stream.nextEvent()?.id == "\((first["seq"] as! NSNumber).intValue)")
            }
        }
    }
}
