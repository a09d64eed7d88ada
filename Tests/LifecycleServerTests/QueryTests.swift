import Foundation
@testable import LifecycleServer
import LifecycleApplication
import LifecycleTesting
import Testing

/// `after`, `limit` and `wait` are range-checked: out of range answers 400 naming the range, and no value traps.
@Suite struct QueryTests {
    private func withFixture(maxWait: Double = 60, _ body: (TestDaemon) throws -> Void) throws {
        try withDaemon(configure: { $0.maxWait = maxWait }) { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            try body(server)
        }
    }

    @Test(arguments: [
        "/v1/apps/a1/timeline", "/v1/apps/a1/callbacks", "/v1/devices/d1/timeline",
        "/v1/apps/a1/notifications?delivered=true&x=1", "/v1/apps/a1/notifications?x=1",
    ])
    func anAfterAboveTwoToTheSixtyThreeIsInvalidAndTheDaemonLivesOn(path: String) throws {
        try withFixture { server in
            let separator = path.contains("?") ? "&" : "?"
            for after in ["9223372036854775808", "18446744073709551615", "99999999999999999999", "", "-1", "1.5"] {
                let reply = try server.get(path + separator + "after=" + after)
                expectProblem(reply, status: 400, code: "invalid-field")
                #expect(reply.string("field") == "after")
                #expect(reply.string("detail")?.contains("0 to 9223372036854775807") == true, "\(reply.text)")
            }
            #expect(try server.get("/v1/apps/a1").status == 200)
        }
    }

    @Test func theLargestAfterAnswersAnEmptyPageWithItAsNext() throws {
        try withFixture { server in
            let reply = try server.get("/v1/apps/a1/timeline?after=9223372036854775807")
            #expect(reply.status == 200)
            #expect(reply.items.isEmpty)
            #expect((reply.object["next"] as? NSNumber)?.int64Value == Int64.max)
        }
    }

    @Test(arguments: [
        "/v1/apps?after=", "/v1/devices?after=", "/v1/apps?after=a%20b", "/v1/apps?limit=", "/v1/devices?limit=1001",
        "/v1/apps/a1/timeline?limit=", "/v1/apps/a1/timeline?wait=", "/v1/apps/a1/notifications?limit=1001",
        "/v1/apps/a1/notifications?limit=0", "/v1/apps/a1/timeline?wait=nan", "/v1/apps/a1/timeline?wait=inf",
        "/v1/apps/a1/timeline?wait=-0.5",
    ])
    func anEmptyOrOutOfRangeQueryValueIsInvalidFieldNamingTheRange(path: String) throws {
        try withFixture { server in
            let reply = try server.get(path)
            expectProblem(reply, status: 400, code: "invalid-field")
            let field = try #require(reply.string("field"))
            #expect(path.contains(field + "="))
            #expect(reply.string("detail")?.contains(" to ") == true || field == "after", "\(reply.text)")
        }
    }

    @Test func aWaitAboveMaxWaitIsInvalidAndNamesTheMaximum() throws {
        try withFixture(maxWait: 2) { server in
            let reply = try server.get("/v1/apps/a1/timeline?after=1000&wait=2.5")
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("field") == "wait")
            #expect(reply.string("detail")?.contains("from 0 to 2 ") == true, "\(reply.text)")
            #expect(try server.get("/v1/apps/a1/timeline?after=1000&wait=0.05").status == 200)
        }
    }

    @Test func theServedDocumentStatesTheConfiguredMaxWait() throws {
        try withFixture(maxWait: 2) { server in
            let document = try server.get("/v1/openapi.yaml").text
            #expect(document.contains("schema: {type: number, minimum: 0, maximum: 2, default: 0}  # --max-wait"))
            #expect(!document.contains("maximum: 60, default: 0}  # --max-wait"))
        }
        try withFixture { server in
            let document = try server.get("/v1/openapi.yaml").text
            #expect(document.contains("maximum: 60, default: 0}  # --max-wait"))
        }
    }

    /// Only the marked line changes, and only its number: every other byte is the spec's.
    @Test func theMaxWaitIsWrittenIntoTheMarkedLineAlone() {
        let spec = Array("a: 1\n  maximum: 60  # not marked\n  x: {maximum: 60, default: 0}  # --max-wait\nend".utf8)
        #expect(
            String(decoding: OpenAPIDocument.withMaxWait(2.5, in: spec), as: UTF8.self)
                == "a: 1\n  maximum: 60  # not marked\n  x: {maximum: 2.5, default: 0}  # --max-wait\nend")
        #expect(OpenAPIDocument.withMaxWait(60, in: spec) == spec)
        let ending = Array("x: {maximum: 60}  # --max-wait\n".utf8)
        #expect(
            String(decoding: OpenAPIDocument.withMaxWait(7, in: ending), as: UTF8.self)
                == "x: {maximum: 7}  # --max-wait\n")
        #expect(OpenAPIDocument.load(maxWait: 60) == PackageResources.openapi_yaml)
    }
}
