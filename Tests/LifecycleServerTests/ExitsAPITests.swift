import Foundation
import LifecycleTesting
import TestSupport
import Testing

/// How apps die on the wire (docs/LIFECYCLE.md §9.1): each termination's code, signal, category and whether it
/// was in front, in its timeline entry and in the app's `termination`, and `GET .../apps/{id}/exits`, the counts
/// in MetricKit's `MXAppExitMetric` shape.
@Suite struct ExitsAPITests {
    static let foregroundKeys = [
        "cumulativeNormalAppExitCount", "cumulativeMemoryResourceLimitExitCount", "cumulativeBadAccessExitCount",
        "cumulativeAbnormalExitCount", "cumulativeIllegalInstructionExitCount", "cumulativeAppWatchdogExitCount",
    ]
    static let backgroundKeys =
        foregroundKeys + [
            "cumulativeCPUResourceLimitExitCount", "cumulativeMemoryPressureExitCount",
            "cumulativeSuspendedWithLockedFileExitCount", "cumulativeBackgroundTaskAssertionTimeoutExitCount",
        ]

    private func lastTermination(_ server: TestDaemon, _ path: String) throws -> [String: Any] {
        let items = try #require(try server.get(path).object["items"] as? [[String: Any]])
        return try #require(items.last { $0["kind"] as? String == "termination" })
    }

    private func exits(_ reply: Reply) throws -> (foreground: [String: Int], background: [String: Int]) {
        let metric = try #require(reply.object["applicationExitMetrics"] as? [String: Any])
        return (
            try #require(metric["foregroundExitData"] as? [String: Int]),
            try #require(metric["backgroundExitData"] as? [String: Int])
        )
    }

    @Test func aWatchdogKillCarriesItsCodeSignalCategoryAndWhetherItWasInFront() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "17.0"}"#)
            try server.createApp(
                #"{"id": "a1", "device": "d1", "bundleId": "com.example.a", "delegate": {"durations": {"applicationDidEnterBackground:": 7}}}"#
            )
            try server.postEvents("/v1/apps/a1/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            let entry = try lastTermination(server, "/v1/apps/a1/timeline")
            #expect(entry["reason"] as? String == "watchdog")
            #expect(entry["code"] as? String == "0x8badf00d")
            #expect(entry["signal"] as? String == "SIGKILL")
            #expect(entry["category"] as? String == "watchdog")
            #expect(entry["foreground"] as? Bool == false)
            #expect(entry["jetsamReason"] == nil)
            let termination = try #require(try server.get("/v1/apps/a1").object["termination"] as? [String: Any])
            for key in ["reason", "code", "signal", "category", "foreground"] {
                #expect(termination[key] as? NSObject == entry[key] as? NSObject, "\(key)")
            }
            let reply = try server.get("/v1/apps/a1/exits")
            #expect(reply.status == 200)
            #expect(reply.string("app") == "a1")
            #expect(reply.string("device") == "d1")
            let counts = try exits(reply)
            #expect(counts.foreground.keys.sorted() == Self.foregroundKeys.sorted())
            #expect(counts.background.keys.sorted() == Self.backgroundKeys.sorted())
            #expect(counts.background["cumulativeAppWatchdogExitCount"] == 1)
            #expect(counts.background.values.reduce(0, +) == 1)
            #expect(counts.foreground.values.reduce(0, +) == 0)
        }
    }

    @Test func aFileLockHeldIntoSuspensionIsKilledWith0xdead10ccAndCountedAsSuch() throws {
        try withDaemon { server in
            try server.createApp(
                #"{"id": "a1", "bundleId": "com.example.a", "delegate": {"actions": {"applicationDidBecomeActive:": [{"do": "acquire", "resource": "fileLock"}]}}}"#
            )
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            #expect(try server.get("/v1/apps/a1").object["resources"] as? [String] == ["fileLock"])
            try server.postEvents("/v1/apps/a1/events", #"{"type": "homeButton"}"#)
            let entry = try lastTermination(server, "/v1/apps/a1/timeline")
            #expect(entry["reason"] as? String == "suspendedWithLockedFile")
            #expect(entry["code"] as? String == "0xdead10cc")
            #expect(entry["category"] as? String == "fileLock")
            #expect(entry["foreground"] as? Bool == false)
            // A force quit in front, then: a normal foreground exit, 0xdeadfa11.
            try server.postEvents("/v1/apps/a1/events", #"[{"type": "launch"}, {"type": "forceQuit"}]"#)
            #expect(try lastTermination(server, "/v1/apps/a1/timeline")["code"] as? String == "0xdeadfa11")
            let counts = try exits(try server.get("/v1/apps/a1/exits"))
            #expect(counts.background["cumulativeSuspendedWithLockedFileExitCount"] == 1)
            #expect(counts.foreground["cumulativeNormalAppExitCount"] == 1)
        }
    }

    @Test func anUnknownAppIsNotFoundAndANamespaceHasItsOwn() throws {
        try withDaemon { server in
            let missing = try server.get("/v1/apps/nope/exits")
            #expect(missing.status == 404)
            #expect(missing.string("code") == "not-found")
            try server.createApp(#"{"id": "a1", "bundleId": "com.example.a"}"#)
            try server.postEvents("/v1/apps/a1/events", #"[{"type": "launch"}, {"type": "crash"}]"#)
            #expect(try server.get("/v1/namespaces/team/apps/a1/exits").status == 404)
            let counts = try exits(try server.get("/v1/apps/a1/exits"))
            #expect(counts.foreground["cumulativeAbnormalExitCount"] == 1)
        }
    }

    /// A termination recorded by an earlier release, read back from its journal and snapshots, gets the facts
    /// its reason decides (its inputs are applied again, so whether it was in front is known too).
    @Test(arguments: DataDirectoryFixtureTests.fixtures)
    func aTerminationFromAnEarlierReleaseGetsItsFacts(_ fixture: DataDirectoryFixtureTests.Fixture) throws {
        try withTemporaryDirectory { directory in
            try DataDirectoryFixtureTests.copy(fixture, to: directory)
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            let items = try #require(
                try server.get("/v1/devices/d2/timeline?limit=1000").object["items"] as? [[String: Any]])
            let ends = items.filter { $0["kind"] as? String == "termination" }
            #expect(!ends.isEmpty)
            for end in ends {
                #expect(end["reason"] as? String == "memoryPressure")
                #expect(end["signal"] as? String == "SIGKILL")
                #expect(end["category"] as? String == "systemPressure")
                #expect(end["jetsamReason"] as? String == "vm-pageshortage")
                #expect(end["foreground"] as? Bool == false)
            }
        }
    }
}
