import Dispatch
import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleTesting
import Synchronization
import TestSupport
import Testing

@testable import LifecycleServer

@Suite struct OperationsTests {
    @Test func theOpenAPIDocumentIsServedAsYAMLWithAnETag() throws {
        try withDaemon { server in
            let reply = try server.get("/v1/openapi.yaml")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/yaml")
            #expect(reply.text.hasPrefix("openapi: 3"))
            #expect(reply.text.contains("/v1/apps/{id}/callbacks"))
            let tag = try #require(reply.header("ETag"))
            #expect(try server.get("/v1/openapi.yaml", headers: [("If-None-Match", tag)]).status == 304)
        }
    }

    @Test func livezAndReadyzAnswerOKOnceTheServiceIsOpenWithTheBuildThatAnswers() throws {
        try withDaemon { server in
            let livez = try server.get("/livez")
            #expect(livez.status == 200)
            #expect(livez.string("status") == "ok")
            let readyz = try server.get("/readyz")
            #expect(readyz.status == 200)
            #expect(readyz.string("status") == "ready")
            for probe in [livez, readyz] {
                #expect(probe.string("version") == BuildInfo.version)
                #expect(probe.string("revision") == BuildInfo.revision)
            }
        }
    }

    @Test func everyAnswerCarriesTheRequestIDTheClientGaveOrOneMade() throws {
        try withDaemon { server in
            #expect(
                try server.get("/v1/apps", headers: [("X-Request-Id", "trace-1")]).header("X-Request-Id") == "trace-1")
            // Refusals too, and an id that is not 1 to 128 visible characters is replaced.
            let refused = try server.get("/v1/nothing", headers: [("X-Request-Id", "has space")])
            #expect(refused.status == 404)
            let made = try #require(refused.header("X-Request-Id"))
            #expect(made != "has space" && !made.isEmpty && made.utf8.count <= 15)
            let next = try #require(try server.get("/v1/apps").header("X-Request-Id"))
            #expect(next != made)
            // One made here is the process's prefix (6 hex digits), a dash, and a counter in hex. The counter is
            // the process's: other daemons of this test process may take numbers in between, never an earlier one.
            let after = try #require(try server.get("/v1/apps").header("X-Request-Id"))
            let (nextParts, afterParts) = (next.split(separator: "-"), after.split(separator: "-"))
            #expect(nextParts.count == 2 && nextParts[0].count == 6 && nextParts[0] == afterParts[0])
            #expect(next.allSatisfy { "0123456789abcdef-".contains($0) } && !nextParts[0].hasPrefix("0"))
            let (nextNumber, afterNumber) = (UInt64(nextParts[1], radix: 16), UInt64(afterParts[1], radix: 16))
            #expect(nextNumber != nil && afterNumber != nil && afterNumber! > nextNumber!)
            // The digits are written from the last one back: over 40 ids (past multiples of 16) the numbers, read
            // most significant first, still rise.
            var last = afterNumber ?? 0
            for _ in 0..<40 {
                let id = try #require(try server.get("/v1/apps").header("X-Request-Id"))
                let number = try #require(UInt64(id.split(separator: "-")[1], radix: 16))
                #expect(number > last, "\(id)")
                last = number
            }
        }
    }

    @Test func theReleaseIsTheOneTheOpenAPIDocumentNames() throws {
        try withDaemon { server in
            let document = try server.get("/v1/openapi.yaml").text
            #expect(document.contains("\n  version: \(BuildInfo.version)\n"))
        }
    }

    @Test func readyzIs503WhileDrainingAndChangesAreRefusedButReadsGoOn() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1"}"#)
            server.service.beginDraining()
            expectProblem(try server.get("/readyz"), status: 503, code: "not-ready")
            expectProblem(try server.post("/v1/devices", "{}"), status: 503, code: "not-ready")
            // However the path is slashed: matching skips empty segments, and so does the gate.
            for path in ["//v1/devices", "/v1//devices", "///v1/apps"] {
                expectProblem(try server.post(path, "{}"), status: 503, code: "not-ready")
            }
            #expect(try server.get("/v1/devices/d1").status == 200)
            #expect(try server.get("//v1/devices/d1").status == 200)
            #expect(try server.get("/livez").status == 200)
        }
    }

    @Test func metricsAnswerPrometheusText() throws {
        try withDaemon { server in
            let reply = try server.get("/metrics")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(reply.text.contains("lifecycled_up 1"))
        }
    }

    @Test func deletingADeviceAnswersItsLongPollsAtOnce() throws {
        // On a clock that does not move, the poll's wait never ends: an answer is the deletion's, not the wait's.
        try withDaemon(configure: { $0.clock = ManualHostClock() }) { server in
            try server.createDevice(#"{"id": "d1"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            let appPoll = Background { try server.get("/v1/apps/a1/callbacks?after=0&wait=10") }
            let devicePoll = Background { try server.get("/v1/devices/d1/timeline?after=0&wait=10") }
            server.waitUntilParked(2)
            #expect(try server.delete("/v1/devices/d1").status == 204)
            expectProblem(try appPoll.join(), status: 404, code: "not-found")
            expectProblem(try devicePoll.join(), status: 404, code: "not-found")
        }
    }

    @Test func deletingAnAppAnswersItsLongPollsAtOnce() throws {
        // On a clock that does not move, the poll's wait never ends: an answer is the deletion's, not the wait's.
        try withDaemon(configure: { $0.clock = ManualHostClock() }) { server in
            try server.createDevice(#"{"id": "d1"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            let poll = Background { try server.get("/v1/apps/a1/timeline?after=0&wait=10") }
            server.waitUntilParked(1)
            #expect(try server.delete("/v1/apps/a1").status == 204)
            expectProblem(try poll.join(), status: 404, code: "not-found")
        }
    }

    @Test func resetDeletesEverythingAndAnswersEveryLongPoll() throws {
        // On a clock that does not move, the poll's wait never ends: an answer is the deletion's, not the wait's.
        try withDaemon(configure: { $0.clock = ManualHostClock() }) { server in
            try server.createDevice(#"{"id": "d1"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            try server.createApp(#"{"bundleId": "com.example.b"}"#)
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            let next = try #require(try server.get("/v1/apps/a1/timeline").int("next"))
            let poll = Background { try server.get("/v1/apps/a1/timeline?after=\(next)&wait=10") }
            server.waitUntilParked(1)
            #expect(try server.request("POST", "/v1/reset").status == 204)
            expectProblem(try poll.join(), status: 404, code: "not-found")

            let devices = try server.get("/v1/devices")
            #expect(devices.items.isEmpty)
            #expect(devices.object["next"] is NSNull)
            #expect(try server.get("/v1/apps").items.isEmpty)
            expectProblem(try server.get("/v1/apps/a1"), status: 404, code: "not-found")
            // The ids are free again.
            try server.createDevice(#"{"id": "d1"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            #expect(try server.get("/v1/apps/a1/timeline").items.isEmpty)
        }
    }

    @Test func stoppingTheServerAnswersParkedPolls() throws {
        // On a clock that does not move, the poll's wait never ends: an answer is the stop's, not the wait's.
        let server = try TestDaemon(configure: { $0.clock = ManualHostClock() })
        defer { server.stop() }
        try server.createApp(#"{"id": "a1", "bundleId": "com.example.a"}"#)
        let poll = Background { try server.get("/v1/apps/a1/callbacks?after=0&wait=10") }
        #expect(eventually { server.service.parked.load(ordering: .relaxed) == 1 })
        server.stop()
        let reply = try poll.join()
        #expect(reply.status == 200)
        #expect(reply.items.isEmpty)
    }
}
