import Foundation
import LifecycleTesting
import Testing

@Suite struct EventsTests {
    /// What a client can read of device `d1` and app `a1`: compared before and after a rejected request.
    private func observable(_ server: TestDaemon) throws -> [String] {
        try [
            server.get("/v1/apps/a1").text,
            server.get("/v1/devices/d1").text,
            server.get("/v1/devices/d1/timeline").text,
            server.get("/v1/apps/a1/timeline").text,
            server.get("/v1/apps/a2/timeline").text,
        ]
    }

    private func withLaunchedApp(_ body: (TestDaemon) throws -> Void) throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            try server.createApp(#"{"id": "a2", "device": "d1", "bundleId": "com.example.b"}"#)
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            try body(server)
        }
    }

    @Test func anEventAnswersTheAppAndTheEntriesItProduced() throws {
        try withLaunchedApp { server in
            let reply = try server.postEvents("/v1/apps/a1/events", #"{"type": "homeButton"}"#)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.nested("app")["state"] as? String == "suspended")
            #expect(reply.object["changed"] as? Bool == true)
            #expect(selectors(reply.entries) == ["applicationWillResignActive:", "applicationDidEnterBackground:"])
            let lastSeq = (reply.nested("app")["lastSeq"] as? NSNumber)?.intValue
            #expect(lastSeq == seqs(reply.entries).last)
        }
    }

    @Test func anEventThatChangesNothingSaysSo() throws {
        try withLaunchedApp { server in
            let before = try observable(server)
            let reply = try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            #expect(reply.object["changed"] as? Bool == false)
            #expect(reply.entries.isEmpty)
            #expect(try observable(server) == before)
        }
    }

    @Test(arguments: [
        #"{"type": "endBackgroundTask", "task": 99}"#,
        #"{"type": "startBackgroundActivity", "mode": "audio"}"#,
        #"{"type": "backgroundFetch"}"#,
        #"{"type": "teleport"}"#,
        #"{"type": "launch", "colour": "red"}"#,
        #"{"type": "interruptionEnded", "accepted": true}"#,
        #"{"type": "switchApp", "to": "nope"}"#,
    ])
    func aRejectedEventChangesNothing(event: String) throws {
        try withLaunchedApp { server in
            let before = try observable(server)
            let reply = try server.post("/v1/apps/a1/events", event)
            #expect((400..<500).contains(reply.status), "\(reply.text)")
            #expect(reply.header("Content-Type") == "application/problem+json")
            #expect(try observable(server) == before)
        }
    }

    @Test(arguments: [
        // The second event is refused by the core after the first was applied to a working copy.
        #"[{"type": "homeButton"}, {"type": "startBackgroundActivity", "mode": "audio"}]"#,
        #"[{"type": "advanceTime", "seconds": 5}, {"type": "interruptionEnded", "accepted": false}]"#,
        // The second event does not decode, so nothing is applied at all.
        #"[{"type": "homeButton"}, {"type": "teleport"}]"#,
        #"[{"type": "homeButton"}, {"type": "openURL"}]"#,
    ])
    func aBatchIsAllOrNothing(batch: String) throws {
        try withLaunchedApp { server in
            let before = try observable(server)
            let reply = try server.post("/v1/apps/a1/events", batch)
            #expect((400..<500).contains(reply.status), "\(reply.text)")
            #expect(reply.int("index") == 1)
            #expect(try observable(server) == before)
        }
    }

    @Test func aBatchIsAppliedInOrderAndAnsweredWithEveryEntry() throws {
        try withLaunchedApp { server in
            let reply = try server.postEvents(
                "/v1/devices/d1/events",
                #"[{"type": "homeButton"}, {"type": "switchApp", "to": "a2"}, {"type": "switchApp", "to": "a1"}]"#)
            #expect(reply.nested("device")["foregroundApp"] as? String == "a1")
            let entrySeqs = seqs(reply.entries)
            #expect(entrySeqs == entrySeqs.sorted())
            #expect(Set(reply.entries.compactMap { $0["app"] as? String }) == ["a1", "a2"])
            let timeline = try server.allEntries("/v1/devices/d1/timeline")
            #expect(Array(timeline.suffix(reply.entries.count)).map(canonical) == reply.entries.map(canonical))
        }
    }

    @Test func aRetryWithTheSameIdempotencyKeyReplaysTheFirstAnswerAndAppliesOnce() throws {
        try withLaunchedApp { server in
            let key = [("Idempotency-Key", "home-1")]
            let first = try server.postEvents("/v1/apps/a1/events", #"{"type": "homeButton"}"#, headers: key)
            #expect(first.header("Idempotent-Replayed") == nil)
            let after = try observable(server)

            let retry = try server.postEvents("/v1/apps/a1/events", #"{"type": "homeButton"}"#, headers: key)
            #expect(retry.body == first.body)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(try observable(server) == after)

            // The same body without the key is a new request: legal, but it changes nothing now.
            let fresh = try server.postEvents("/v1/apps/a1/events", #"{"type": "homeButton"}"#)
            #expect(fresh.object["changed"] as? Bool == false)
        }
    }

    /// A key belongs to the app (or device) whose events it carried, not to the spelling of the path: the
    /// namespace `default` named in the path is the same app; the device's own events are another scope.
    @Test func anIdempotencyKeyIsTheAppsWhateverPathReachesIt() throws {
        try withLaunchedApp { server in
            let key = [("Idempotency-Key", "same")]
            let first = try server.postEvents("/v1/apps/a1/events", #"{"type": "homeButton"}"#, headers: key)
            let again = try server.postEvents(
                "/v1/namespaces/default/apps/a1/events", #"{"type": "homeButton"}"#, headers: key)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(again.body == first.body)
            let device = try server.postEvents("/v1/devices/d1/events", #"{"type": "homeButton"}"#, headers: key)
            #expect(device.header("Idempotent-Replayed") == nil)
        }
    }

    @Test func anIdempotencyKeyReusedWithAnotherBodyIsUnprocessable() throws {
        try withLaunchedApp { server in
            let key = [("Idempotency-Key", "k")]
            try server.postEvents("/v1/apps/a1/events", #"{"type": "touch"}"#, headers: key)
            let before = try observable(server)
            let reply = try server.post("/v1/apps/a1/events", #"{"type": "homeButton"}"#, headers: key)
            expectProblem(reply, status: 422, code: "idempotency-key-reused")
            #expect(try observable(server) == before)
        }
    }

    @Test func anEmptyIdempotencyKeyIsInvalid() throws {
        try withLaunchedApp { server in
            let reply = try server.post("/v1/apps/a1/events", #"{"type": "touch"}"#, headers: [("Idempotency-Key", "")])
            expectProblem(reply, status: 400, code: "invalid-field")
        }
    }
}
