import Dispatch
import Foundation
import LifecycleApplication
import LifecycleCore
import LifecycleScenarios
import LifecycleTesting
import Locking
import Testing

@testable import LifecycleServer

/// A live session exported (LIFECYCLE §13, docs/SCENARIOS.md): each events POST whose callbacks a live delegate
/// answered is written with its answers, so the scenario checks and imports with no live code attached.
@Suite struct LiveAnswersExportTests {
    /// A delegate that saves in the background, inside a task it ends when the task's time is up.
    final class Saver: CallbackAnswering {
        func answer(_ callback: PendingCallback) -> CallbackAnswer {
            switch callback.selector {
            case Selector.didEnterBackground:
                CallbackAnswer(duration: 1.5, actions: [.beginBackgroundTask(name: "save", duration: nil)])
            case Selector.backgroundTaskExpirationHandler:
                CallbackAnswer(actions: callback.backgroundTasks.map { .endBackgroundTask(task: $0) })
            case "applicationWillResignActive:":
                .notImplemented
            default:
                CallbackAnswer(returns: true)
            }
        }
    }

    static func attach(_ answerer: any CallbackAnswering, to app: String, on server: TestDaemon) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Protected<Bool>(false)
        server.service.application.attachDelegate(answerer, toApp: app, in: "default") { result in
            outcome.withLock { $0 = (try? result.get()) != nil }
            done.signal()
        }
        done.wait()
        try #require(outcome.withLock { $0 }, "the delegate was not attached")
    }

    @Test func aLiveSessionExportsWithItsAnswersAndReplaysWithoutTheDelegate() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "phone", "iosVersion": "14.0"}"#)
            try server.createApp(
                #"{"id": "tracker", "device": "phone", "bundleId": "com.example.tracker", "iosVersion": "12.0", "delegate": {"live": true}}"#
            )
            try Self.attach(Saver(), to: "tracker", on: server)
            try server.postEvents("/v1/apps/tracker/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            try server.postEvents("/v1/devices/phone/events", #"{"type": "advanceTime", "seconds": 200}"#)
            let timeline = try ExportImportTests.timeline(server, "/v1/apps/tracker/timeline")
            #expect(timeline.contains(#""event":"expired""#), "the handler ended its task: it expired\n\(timeline)")

            let export = try server.get("/v1/export")
            try #require(export.status == 200, "\(export.text)")
            let scenario = try Scenario(file: "live.scenario.json", bytes: export.body)
            let answered = scenario.steps.filter { step in
                if case .object(let body)? = step["body"], body["answers"] != nil { return true }
                return false
            }
            // The launch and Home, and the advance that asked the expiration handler.
            #expect(answered.count == 2, "\(export.text)")
            #expect(export.text.contains(#""name":"save""#))

            // Checked as `lifecycled check` does, in a namespace of its own, with no delegate attached there.
            try ScenarioRunner(transport: ExportImportTests.DaemonTransport(server: server), namespace: "replayed")
                .run(scenario)
            #expect(try ExportImportTests.timeline(server, "/v1/namespaces/replayed/apps/tracker/timeline") == timeline)
            let imported = try server.post("/v1/namespaces/copy/import", export.text)
            #expect(imported.status == 200, "\(imported.text)")
            #expect(imported.string("expectations") == "checked")
            #expect(try ExportImportTests.timeline(server, "/v1/namespaces/copy/apps/tracker/timeline") == timeline)
        }
    }

    /// Answers given with events are checked as a pending callback's answer is, and refused with a problem.
    @Test func answersGivenWithEventsAreValidated() throws {
        try withDaemon { server in
            try server.createApp(#"{"id": "a", "bundleId": "com.example.a", "delegate": {"live": true}}"#)
            let cases: [(String, String)] = [
                (#"{"answers": []}"#, "events"),
                (#"{"events": [{"type": "launch"}], "answers": {}}"#, "answers"),
                (#"{"events": [{"type": "launch"}], "answers": [{"duration": -2}]}"#, "answers[0].duration"),
                (#"{"events": [{"type": "launch"}], "answers": [], "extra": 1}"#, "extra"),
                // Each action's bounds, as a script's actions are held to them (CallbackAction.validationFailure).
                (
                    #"{"events": [], "answers": [{"actions": [{"do": "cancelTaskRequest", "identifier": ""}]}]}"#,
                    "answers[0].actions"
                ),
                (
                    #"{"events": [], "answers": [{"actions": [{"do": "submitTask", "kind": "refresh", "identifier": "\#(String(repeating: "é", count: 256))"}]}]}"#,
                    "answers[0].actions"
                ),
                (
                    #"{"events": [], "answers": [{"actions": [{"do": "submitTask", "kind": "continued", "identifier": "x", "title": "\#(String(repeating: "t", count: 256))"}]}]}"#,
                    "answers[0].actions"
                ),
                (
                    #"{"events": [], "answers": [{"actions": [{"do": "hideViews", "views": [""]}]}]}"#,
                    "answers[0].actions"
                ),
            ]
            for (body, field) in cases {
                let refused = try server.post("/v1/apps/a/events", body)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == field, "\(body): \(refused.text)")
            }
            #expect(try server.get("/v1/apps/a").string("state") == "notRunning")
            // Given in full, they answer the launch: no delegate is asked, nothing waits.
            let answers = String(repeating: #"{"returns": true},"#, count: 9) + #"{"returns": true}"#
            try server.postEvents("/v1/apps/a/events", #"{"events": [{"type": "launch"}], "answers": [\#(answers)]}"#)
            #expect(try server.get("/v1/apps/a").string("state") == "active")
        }
    }
}
