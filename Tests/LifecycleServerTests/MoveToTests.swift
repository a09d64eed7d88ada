import Foundation
import LifecycleTesting
import TestSupport
import Testing

/// `moveTo {state}` through HTTP (API.md "Moving an app to a state").
@Suite struct MoveToTests {
    private func withMovableApp(store: Store = .memory, _ body: (TestDaemon) throws -> Void) throws {
        try withDaemon(store: store) { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "17.0", "suspendDelay": 2}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            try body(server)
        }
    }

    /// Entries without their `app` and `seq`: what two apps on two alike devices can share.
    private func shape(_ entries: [[String: Any]]) -> [String] {
        entries.map { entry in
            var entry = entry
            entry["app"] = nil
            entry["seq"] = nil
            return canonical(entry)
        }
    }

    @Test func moveToAnswersTheEntriesAndThePathWhichPostedAsABatchDoesTheSame() throws {
        try withMovableApp { server in
            let reply = try server.postEvents("/v1/apps/a1/events", #"{"type": "moveTo", "state": "suspended"}"#)
            #expect(reply.nested("app")["state"] as? String == "suspended")
            #expect(reply.object["changed"] as? Bool == true)
            let applied = try #require(reply.object["applied"] as? [Any])
            #expect(canonical(applied) == #"[{"background":true,"type":"launch"},{"seconds":2,"type":"advanceTime"}]"#)

            try server.createDevice(#"{"id": "d2", "iosVersion": "17.0", "suspendDelay": 2}"#)
            try server.createApp(#"{"id": "a2", "device": "d2", "bundleId": "com.example.a"}"#)
            let batch = try server.postEvents("/v1/apps/a2/events", canonical(applied))
            #expect(shape(batch.entries) == shape(reply.entries))
            #expect(batch.object["applied"] == nil, "applied answers only a request with a moveTo")
            #expect(batch.nested("app")["state"] as? String == "suspended")
        }
    }

    @Test func alreadyThereChangesNothingAndAppliesNothing() throws {
        try withMovableApp { server in
            try server.postEvents("/v1/apps/a1/events", #"{"type": "moveTo", "state": "active"}"#)
            let before = try server.get("/v1/devices/d1/timeline").text
            let reply = try server.postEvents("/v1/apps/a1/events", #"{"type": "moveTo", "state": "active"}"#)
            #expect(reply.object["changed"] as? Bool == false)
            #expect(canonical(reply.object["applied"] ?? "missing") == "[]")
            #expect(reply.entries.isEmpty)
            #expect(try server.get("/v1/devices/d1/timeline").text == before)
        }
    }

    @Test func aBlockedMoveAnswers409NamingTheStepAndChangesNothing() throws {
        try withMovableApp { server in
            try server.postEvents(
                "/v1/apps/a1/events", #"[{"type": "moveTo", "state": "suspended"}, {"type": "lock"}]"#)
            let before = try [server.get("/v1/apps/a1").text, server.get("/v1/devices/d1/timeline").text]
            let reply = try server.post("/v1/apps/a1/events", #"{"type": "moveTo", "state": "inactive"}"#)
            expectProblem(reply, status: 409, code: "invalid-transition")
            #expect(canonical(reply.object["blockedBy"] ?? "missing") == #"{"type":"activate"}"#)
            #expect(reply.object["allowed"] as? [String] == ["unlock"])
            #expect(reply.string("state") == "suspended")
            #expect(reply.string("detail")?.contains("activate") == true)
            #expect(try [server.get("/v1/apps/a1").text, server.get("/v1/devices/d1/timeline").text] == before)
        }
    }

    @Test(arguments: [
        #"{"type": "moveTo"}"#, #"{"type": "moveTo", "state": "asleep"}"#, #"{"type": "moveTo", "state": null}"#,
        #"{"type": "moveTo", "state": 3}"#,
    ])
    func aMissingOrUnknownStateIs400WithTheStates(event: String) throws {
        try withMovableApp { server in
            let reply = try server.post("/v1/apps/a1/events", event)
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("field") == "state")
            if event.contains("asleep") || !event.contains("state") {
                #expect(
                    reply.object["allowed"] as? [String] == [
                        "notRunning", "inactive", "active", "background", "suspended",
                    ])
            }
        }
    }

    @Test func theDevicePathRefusesMoveToAsAnAppEvent() throws {
        try withMovableApp { server in
            let reply = try server.post("/v1/devices/d1/events", #"{"type": "moveTo", "state": "active"}"#)
            expectProblem(reply, status: 400, code: "unknown-event")
        }
    }

    @Test func anIdempotentRetryReplaysTheAnswerAndAppliesNothing() throws {
        try withMovableApp { server in
            let key = [("Idempotency-Key", "move-1")]
            let body = #"{"type": "moveTo", "state": "background"}"#
            let first = try server.postEvents("/v1/apps/a1/events", body, headers: key)
            let timeline = try server.get("/v1/devices/d1/timeline").text
            let retry = try server.postEvents("/v1/apps/a1/events", body, headers: key)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.text == first.text)
            #expect(try server.get("/v1/devices/d1/timeline").text == timeline)
            let other = try server.post("/v1/apps/a1/events", #"{"type": "moveTo", "state": "active"}"#, headers: key)
            expectProblem(other, status: 422, code: "idempotency-key-reused")
        }
    }

    @Test func aMoveReplaysFromTheJournalAfterARestart() throws {
        try withTemporaryDirectory { directory in
            var before: [String] = []
            let first: Reply
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory))
                defer { server.stop() }
                try server.createDevice(#"{"id": "d1", "iosVersion": "17.0", "suspendDelay": 2}"#)
                try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
                try server.postEvents("/v1/apps/a1/events", #"{"type": "moveTo", "state": "inactive"}"#)
                first = try server.postEvents(
                    "/v1/apps/a1/events", #"{"type": "moveTo", "state": "suspended"}"#,
                    headers: [("Idempotency-Key", "m")])
                before = try ["/v1/apps/a1", "/v1/devices/d1", "/v1/devices/d1/timeline?limit=1000"].map {
                    try server.get($0).text
                }
            }
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            let after = try ["/v1/apps/a1", "/v1/devices/d1", "/v1/devices/d1/timeline?limit=1000"].map {
                try server.get($0).text
            }
            #expect(after == before)
            let replayed = try server.postEvents(
                "/v1/apps/a1/events", #"{"type": "moveTo", "state": "suspended"}"#, headers: [("Idempotency-Key", "m")])
            #expect(replayed.text == first.text)
            #expect(replayed.header("Idempotent-Replayed") == "true")
        }
    }
}
