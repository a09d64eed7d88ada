import Foundation
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// `GET /v1/changes`: a snapshot, then app and device snapshots as they change, merged for a slow reader.
@Suite struct ChangesStreamTests {
    static func json(_ event: ServerSentEvent) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] ?? [:]
    }

    static func ids(_ list: Any?) -> [String] {
        (list as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func theStreamStartsWithASnapshotThenFollowsAppsAndDevices() throws {
        try withDaemon(transport: .live) { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
            let stream = try EventStreamClient(port: server.port, path: "/v1/changes")
            #expect(stream.head.status == 200)
            #expect(stream.head.header("Content-Type") == "text/event-stream")
            let snapshot = try #require(try stream.nextEvent())
            #expect(snapshot.event == "snapshot")
            #expect(Self.ids(Self.json(snapshot)["devices"]) == ["d"])
            #expect(Self.ids(Self.json(snapshot)["apps"]) == ["a"])

            try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
            let current = canonical(try server.get("/v1/apps/a").object)
            let launched = try stream.events { $0.event == "app" && canonical(Self.json($0)) == current }
            #expect(launched.last?.event == "app")

            try server.createApp(#"{"id": "b", "device": "d", "bundleId": "com.example.b"}"#)
            let added = try stream.events { $0.event == "app" && Self.json($0)["id"] as? String == "b" }
            #expect(added.last.map { Self.json($0)["id"] as? String } == "b")

            #expect(try server.delete("/v1/apps/b").status == 204)
            let removed = try #require(try stream.events { $0.event == "deleted" }.last)
            #expect(canonical(Self.json(removed)) == canonical(["kind": "app", "id": "b"]))

            #expect(try server.delete("/v1/devices/d").status == 204)
            var deleted: [String] = []
            while deleted.count < 2, let event = try stream.nextEvent() {
                if event.event == "deleted" {
                    deleted.append("\(Self.json(event)["kind"]!) \(Self.json(event)["id"]!)")
                }
            }
            #expect(deleted == ["app a", "device d"])
        }
    }

    @Test func changesFasterThanTheClientReadsAreMergedAndItEndsWithTheLatest() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(#"{"id": "a", "bundleId": "com.example.a", "iosVersion": "7.0"}"#)
            let stream = try EventStreamClient(
                port: server.port, path: "/v1/changes", timeoutSeconds: 10, receiveBufferBytes: 4096)
            #expect(try stream.nextEvent()?.event == "snapshot")
            let posts = 300
            for index in 0..<posts {
                let type = index % 2 == 0 ? "launch" : "homeButton"
                try server.postEvents("/v1/apps/a/events", #"{"type": "\#(type)"}"#)
            }
            let latest = canonical(try server.get("/v1/apps/a").object)
            let events = try stream.events { $0.event == "app" && canonical(Self.json($0)) == latest }
            let appEvents = events.filter { $0.event == "app" }
            #expect(canonical(Self.json(try #require(appEvents.last))) == latest)
            // Every post changed the app; a reader that kept up would have had 300 app events.
            #expect(appEvents.count < posts / 2, "\(appEvents.count) app events for \(posts) changes")
        }
    }

    @Test func withoutAcceptEventStreamTheChangesResourceAnswersTheSnapshotAsJSON() throws {
        try withDaemon(transport: .live) { server in
            try server.createApp(#"{"id": "a", "bundleId": "com.example.a", "iosVersion": "7.0"}"#)
            let reply = try server.get("/v1/changes")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(Self.ids(reply.object["apps"]) == ["a"])
            #expect(Self.ids(reply.object["devices"]).count == 1)
            let tag = try #require(reply.header("ETag"))
            #expect(try server.get("/v1/changes", headers: [("If-None-Match", tag)]).status == 304)
            #expect(server.service.openEventStreams == 0)
        }
    }
}
