import Foundation
import LifecycleCore
import LifecycleStore
import LifecycleTesting
import Logging
import TestSupport
import Testing

@testable import LifecycleServer

/// Version 1 records holding bodies journaled before the API grew stricter (a `null` member read as absent, an empty URL scheme, a
/// moment among the settings, a selector the daemon does not know) still replay: a data directory written then still starts.
@Suite struct ReplayCompatibilityTests {
    @Test func bodiesAcceptedBeforeTheStricterChecksReplay() throws {
        try withTemporaryDirectory { directory in
            var logger = Logger(label: "ReplayCompatibilityTests")
            logger.logLevel = .error
            let journal = try SQLiteJournal(directory: directory, logger: logger)
            // Version 1 records (the first release's format: the request JSON as posted).
            let records: [String] = [
                #"{"op":"device","config":{"settings":{"significantTime":1,"locale":"fr_FR"},"clock":null},"wall":0}"#,
                #"{"op":"app","id":"a1","config":{"bundleId":"com.example.a","device":null,"info":{"urlSchemes":[""]},"#
                    + #""delegate":{"notImplemented":["applicationDidFinishLaunchin:"]}}}"#,
                #"{"op":"events","app":"a1","now":0,"events":{"type":"launch","url":null}}"#,
            ]
            let written = DispatchSemaphore(value: 0)
            for record in records {
                journal.append(stream: "d1", record: Array(record.utf8)) { _ in written.signal() }
            }
            for _ in records { written.wait() }
            journal.flush()
            journal.close()

            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            let app = try server.get("/v1/apps/a1")
            #expect(app.status == 200)
            #expect(app.string("state") == "active")
            // The same bodies sent now are refused.
            expectProblem(
                try server.post("/v1/apps", #"{"bundleId": "x", "device": null}"#), status: 400, code: "invalid-field")
            expectProblem(
                try server.post("/v1/devices", #"{"settings": {"significantTime": 1}}"#), status: 400,
                code: "invalid-field")
            expectProblem(
                try server.post(
                    "/v1/apps", #"{"bundleId": "x", "delegate": {"notImplemented": ["applicationDidFinishLaunchin:"]}}"#
                ),
                status: 400, code: "invalid-field")
        }
    }
}
