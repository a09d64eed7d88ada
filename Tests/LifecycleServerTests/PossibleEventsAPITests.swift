import Foundation
import LifecycleCore
import LifecycleTesting
import Testing

@testable import LifecycleServer

/// `GET .../apps/{id}/events`: the event types the app and its device would accept now, and why not the others.
@Suite struct PossibleEventsAPITests {
    private func entry(_ reply: Reply, _ type: String) throws -> [String: Any] {
        let entries = try #require(reply.object["eventTypes"] as? [[String: Any]])
        return try #require(entries.first { $0["type"] as? String == type })
    }

    @Test func everyTypeIsListedWithWhetherItIsPossibleAndTheProblemOfThoseThatAreNot() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "17.0"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            let before = try server.get("/v1/devices/d1/timeline")
            let reply = try server.get("/v1/apps/a1/events")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.string("app") == "a1")
            #expect(reply.string("device") == "d1")
            #expect(reply.string("state") == "notRunning")
            let entries = try #require(reply.object["eventTypes"] as? [[String: Any]])
            #expect(entries.compactMap { $0["type"] as? String } == EventType.allCases.map(\.name))
            let launch = try entry(reply, "launch")
            #expect(launch["possible"] as? Bool == true)
            #expect(launch["changes"] as? Bool == true)
            #expect(launch["scope"] as? String == "app")
            #expect(launch["problem"] == nil)
            let unlock = try entry(reply, "unlock")
            #expect(unlock["possible"] as? Bool == false)
            #expect(unlock["scope"] as? String == "device")
            let problem = try #require(unlock["problem"] as? [String: Any])
            // The problem a POST of it answers: the same code, status and detail.
            let posted = try server.post("/v1/apps/a1/events", #"{"type": "unlock"}"#)
            #expect(posted.status == 409)
            #expect(problem["status"] as? Int == 409)
            #expect(problem["code"] as? String == posted.string("code"))
            #expect(problem["detail"] as? String == posted.string("detail"))
            #expect(problem["allowed"] as? [String] == ["lock"])
            #expect((try entry(reply, "endBackgroundTask")["problem"] as? [String: Any])?["field"] as? String == "task")
            // Asking changed nothing.
            #expect(try server.get("/v1/devices/d1/timeline").text == before.text)
            #expect(try server.get("/v1/apps/a1").string("state") == "notRunning")
        }
    }

    @Test func theAnswerFollowsTheStateAndAnswers304WhileNothingChanged() throws {
        try withDaemon { server in
            try server.createApp(#"{"id": "a1", "bundleId": "com.example.a"}"#)
            let first = try server.get("/v1/apps/a1/events")
            #expect(try entry(first, "unlock")["possible"] as? Bool == false)
            let tag = try #require(first.header("ETag"))
            #expect(try server.get("/v1/apps/a1/events", headers: [("If-None-Match", tag)]).status == 304)
            try server.postEvents("/v1/apps/a1/events", #"[{"type": "launch"}, {"type": "lock"}]"#)
            let locked = try server.get("/v1/apps/a1/events", headers: [("If-None-Match", tag)])
            #expect(locked.status == 200)
            #expect(locked.string("state") == "background" || locked.string("state") == "suspended")
            #expect(try entry(locked, "unlock")["possible"] as? Bool == true)
            #expect(try entry(locked, "launch")["possible"] as? Bool == false)
        }
    }

    @Test func theNamespacedPathAnswersForTheAppOfThatNamespaceAndAnUnknownAppIs404() throws {
        try withDaemon { server in
            try server.createApp(#"{"id": "a1", "bundleId": "com.example.a"}"#)
            #expect(
                try server.post("/v1/namespaces/team-a/apps", #"{"id": "b1", "bundleId": "com.example.b"}"#).status
                    == 201)
            let reply = try server.get("/v1/namespaces/team-a/apps/b1/events")
            #expect(reply.status == 200)
            #expect(reply.string("app") == "b1")
            expectProblem(try server.get("/v1/namespaces/team-a/apps/a1/events"), status: 404, code: "not-found")
            expectProblem(try server.get("/v1/apps/nope/events"), status: 404, code: "not-found")
        }
    }
}
