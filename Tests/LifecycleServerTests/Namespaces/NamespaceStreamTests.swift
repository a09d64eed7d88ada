import Foundation
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// Event streams inside namespaces: each namespace's `changes` stream sees only its own devices and apps,
/// and a namespace's reset or deletion ends the streams on it (and only those).
@Suite struct NamespaceStreamTests {
    static func json(_ event: ServerSentEvent) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] ?? [:]
    }

    static func appIDs(_ snapshot: ServerSentEvent) -> [String] {
        ((json(snapshot)["apps"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    @Test func eachNamespacesChangesStreamSeesOnlyItsOwnApps() throws {
        try withDaemon(transport: .live) { server in
            // The same app id in two namespaces and in default.
            for prefix in ["/v1/namespaces/red", "/v1/namespaces/blue", "/v1"] {
                #expect(
                    try server.post("\(prefix)/apps", #"{"id": "mail", "bundleId": "com.example.mail"}"#).status == 201)
            }
            #expect(
                try server.post("/v1/namespaces/red/apps", #"{"id": "notes", "bundleId": "com.example.notes"}"#).status
                    == 201)
            let red = try EventStreamClient(port: server.port, path: "/v1/namespaces/red/changes")
            let blue = try EventStreamClient(port: server.port, path: "/v1/namespaces/blue/changes")
            let redSnapshot = try #require(try red.nextEvent())
            let blueSnapshot = try #require(try blue.nextEvent())
            #expect(redSnapshot.event == "snapshot" && blueSnapshot.event == "snapshot")
            #expect(Self.appIDs(redSnapshot).sorted() == ["mail", "notes"])
            #expect(Self.appIDs(blueSnapshot) == ["mail"])

            // A change in blue reaches blue's stream; red's stream hears nothing of it, only its own change.
            try server.postEvents("/v1/namespaces/blue/apps/mail/events", #"{"type": "launch"}"#)
            let blueApp = try blue.events { $0.event == "app" }.last
            #expect(blueApp.map { Self.json($0)["state"] as? String } == "active")
            try server.postEvents("/v1/namespaces/red/apps/notes/events", #"{"type": "launch"}"#)
            let redEvents = try red.events { $0.event == "app" && Self.json($0)["id"] as? String == "notes" }
            #expect(!redEvents.contains { $0.event == "app" && Self.json($0)["id"] as? String == "mail" })
        }
    }

    @Test func aNamespacesDeletionEndsItsStreamsAndLeavesTheOthersOpen() throws {
        try withDaemon(transport: .live) { server in
            for prefix in ["/v1/namespaces/red", "/v1/namespaces/blue"] {
                #expect(
                    try server.post("\(prefix)/apps", #"{"id": "mail", "bundleId": "com.example.mail"}"#).status == 201)
            }
            let redChanges = try EventStreamClient(port: server.port, path: "/v1/namespaces/red/changes")
            let redTimeline = try EventStreamClient(port: server.port, path: "/v1/namespaces/red/apps/mail/timeline")
            let blueChanges = try EventStreamClient(port: server.port, path: "/v1/namespaces/blue/changes")
            #expect(try redChanges.nextEvent()?.event == "snapshot")
            #expect(try blueChanges.nextEvent()?.event == "snapshot")
            #expect(eventually { server.service.openEventStreams == 3 })

            #expect(try server.delete("/v1/namespaces/red").status == 204)
            for stream in [redChanges, redTimeline] {
                let events = try stream.events { $0.event == "end" }
                #expect(events.last.map { Self.json($0)["reason"] as? String } == "deleted")
                #expect(try stream.nextEvent() == nil)
            }
            #expect(eventually { server.service.openEventStreams == 1 })
            // Blue's stream goes on.
            try server.postEvents("/v1/namespaces/blue/apps/mail/events", #"{"type": "launch"}"#)
            #expect(try blueChanges.events { $0.event == "app" }.last?.event == "app")
            // A stream of a namespace that does not exist answers 404 like any read of it.
            #expect(
                try server.get("/v1/namespaces/red/changes", headers: [("Accept", "text/event-stream")]).status == 404)
        }
    }
}
