import Foundation
import LifecycleTesting
import Testing

/// The Scenes section of API.md: fields, events, entries, filters and errors over HTTP.
@Suite struct ScenesAPITests {
    static let manifest = #"{"supportsMultipleScenes": true, "configurations": [{"name": "Main"}]}"#

    func padWithNotes(_ server: TestDaemon) throws {
        try server.createDevice(#"{"id": "pad", "iosVersion": "17.0", "idiom": "pad"}"#)
        try server.createApp(
            #"{"id": "notes", "device": "pad", "bundleId": "com.example.notes", "info": {"sceneManifest": \#(Self.manifest)}}"#
        )
    }

    /// `sceneDisconnectDelay: null` is the member's default ("never on its own"), so a client may send it;
    /// a number outside its range is refused with the range.
    @Test func aNullSceneDisconnectDelayIsItsDefault() throws {
        try withDaemon { server in
            let created = try server.post("/v1/devices", #"{"id": "p", "idiom": "pad", "sceneDisconnectDelay": null}"#)
            #expect(created.status == 201)
            #expect(try server.get("/v1/devices/p").object["sceneDisconnectDelay"] is NSNull)
            expectProblem(
                try server.post("/v1/devices", #"{"id": "q", "sceneDisconnectDelay": -1}"#), status: 400,
                code: "invalid-field")
            #expect(try server.get("/v1/devices/q").status == 404)
        }
    }

    /// A device's own snapshot, posted back, creates a device: `sceneDisconnectDelay: null` means "never".
    @Test func aNullSceneDisconnectDelayIsNever() throws {
        try withDaemon { server in
            let created = try server.createDevice(#"{"id": "pad", "sceneDisconnectDelay": null}"#)
            #expect(created.object["sceneDisconnectDelay"] is NSNull)
            let refused = try server.post("/v1/devices", #"{"sceneDisconnectDelay": "soon"}"#)
            expectProblem(refused, status: 400, code: "invalid-field")
        }
    }

    /// `info.sceneManifest: null` is no manifest, and a configuration's `delegateClass: null` no scene delegate.
    @Test func nullManifestAndNullDelegateClassMeanNone() throws {
        try withDaemon { server in
            let plain = try server.createApp(
                #"{"id": "plain", "bundleId": "com.example.p", "info": {"sceneManifest": null}}"#)
            #expect(plain.object["lifecycle"] as? String == "appDelegate")
            let bare = try server.createApp(
                #"{"id": "bare", "bundleId": "com.example.b", "info": {"sceneManifest": {"configurations": [{"name": "D", "delegateClass": null}]}}}"#
            )
            #expect(bare.object["lifecycle"] as? String == "scene")
            let launched = try server.postEvents("/v1/apps/bare/events", #"{"type": "launch"}"#)
            #expect(
                selectors(launched.entries).allSatisfy { !$0.hasPrefix("scene") },
                "no scene delegate, no scene callback")
            #expect(launched.nested("app")["state"] as? String == "active")
        }
    }

    @Test func snapshotsShowTheSceneFields() throws {
        try withDaemon { server in
            try padWithNotes(server)
            let device = try server.get("/v1/devices/pad").object
            #expect(device["idiom"] as? String == "pad")
            #expect(device["sceneDisconnectDelay"] is NSNull)
            let created = try server.get("/v1/apps/notes").object
            #expect(created["lifecycle"] as? String == "scene")
            #expect(created["sdkVersion"] as? String == "17.0")
            #expect((created["sessions"] as? [Any])?.isEmpty == true)
            let info = try #require(created["info"] as? [String: Any])
            #expect(
                canonical(info["sceneManifest"]!)
                    == canonical([
                        "supportsMultipleScenes": true,
                        "configurations": [
                            [
                                "name": "Main", "role": "UIWindowSceneSessionRoleApplication",
                                "delegateClass": "SceneDelegate",
                            ]
                        ],
                    ]))
            try server.postEvents("/v1/apps/notes/events", #"{"type": "launch"}"#)
            let sessions = try #require(try server.get("/v1/apps/notes").object["sessions"] as? [[String: Any]])
            #expect(
                canonical(sessions)
                    == canonical([
                        [
                            "id": "s1", "configuration": "Main", "role": "UIWindowSceneSessionRoleApplication",
                            "state": "foregroundActive", "stateSince": 0, "pendingDiscard": false,
                            "stateRestorationActivity": NSNull(),
                        ]
                    ]))
            try server.createApp(#"{"id": "plain", "device": "pad", "bundleId": "com.example.plain"}"#)
            #expect(try server.get("/v1/apps/plain").string("lifecycle") == "appDelegate")
        }
    }

    @Test func configurationForConnectingReturnsAName() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "17.0"}"#)
            let reply = try server.createApp(
                #"{"id": "a", "device": "d", "bundleId": "x", "info": {"sceneManifest": {}}, "delegate": {"returns": {"application:configurationForConnectingSceneSession:options:": "Code"}}}"#
            )
            let delegate = try #require(reply.object["delegate"] as? [String: Any])
            #expect(
                canonical(delegate["returns"]!)
                    == canonical(["application:configurationForConnectingSceneSession:options:": "Code"]))
            let duplicate = try server.post(
                "/v1/apps",
                #"{"bundleId": "x", "info": {"sceneManifest": {"configurations": [{"name": "A"}, {"name": "A"}]}}}"#)
            expectProblem(duplicate, status: 400, code: "invalid-field")
            #expect(duplicate.string("field") == "info.sceneManifest.configurations")
        }
    }

    @Test func entriesCarrySessionAndSceneStateAndFilterBySession() throws {
        try withDaemon { server in
            try padWithNotes(server)
            try server.postEvents("/v1/apps/notes/events", #"[{"type": "launch"}, {"type": "openScene"}]"#)
            let s2 = try server.get("/v1/apps/notes/timeline?session=s2&limit=1000").items
            #expect(!s2.isEmpty)
            #expect(s2.allSatisfy { $0["session"] as? String == "s2" })
            #expect(Set(s2.compactMap { $0["kind"] as? String }) == ["callback", "notification", "sceneState"])
            let callbacks = try server.get("/v1/apps/notes/callbacks?session=s2&limit=1000").items
            #expect(
                selectors(callbacks) == [
                    "scene:willConnectToSession:options:", "sceneWillEnterForeground:", "sceneDidBecomeActive:",
                ])
            #expect(callbacks.map { $0["sceneState"] as? String } == ["unattached", "background", "foregroundActive"])
            let all = try server.allEntries("/v1/apps/notes/callbacks")
            let configure = try #require(
                all.first { $0["selector"] as? String == "application:configurationForConnectingSceneSession:options:" }
            )
            #expect(configure["session"] == nil)
            expectProblem(
                try server.get("/v1/apps/notes/timeline?session=not%20an%20id"), status: 400, code: "invalid-field")
        }
    }

    @Test func errorsComeInTheDocumentedOrder() throws {
        try withDaemon { server in
            try padWithNotes(server)
            try server.createApp(#"{"id": "plain", "device": "pad", "bundleId": "com.example.plain"}"#)
            let noScenes = try server.post("/v1/apps/plain/events", #"{"type": "closeScene", "session": "s1"}"#)
            expectProblem(noScenes, status: 409, code: "invalid-transition")
            #expect(noScenes.string("lifecycle") == "appDelegate")
            #expect(noScenes.string("state") == "notRunning")
            let badSession = try server.post("/v1/apps/plain/events", #"{"type": "activate", "session": "s1"}"#)
            expectProblem(badSession, status: 400, code: "invalid-field")
            #expect(badSession.string("field") == "session")
            try server.postEvents("/v1/apps/notes/events", #"{"type": "launch"}"#)
            expectProblem(
                try server.post("/v1/apps/notes/events", #"{"type": "openScene", "session": "s1"}"#), status: 409,
                code: "already-exists")
            let foreground = try server.post("/v1/apps/notes/events", #"{"type": "disconnectScene", "session": "s1"}"#)
            expectProblem(foreground, status: 409, code: "invalid-transition")
            #expect(foreground.string("sceneState") == "foregroundActive")
            expectProblem(
                try server.post("/v1/apps/notes/events", #"{"type": "closeScene"}"#), status: 400,
                code: "invalid-field")
            let unknown = try server.post("/v1/apps/notes/events", #"{"type": "teleport"}"#)
            let valid = try #require(unknown.object["validTypes"] as? [String])
            #expect(Set(["openScene", "closeScene", "disconnectScene"]).isSubset(of: Set(valid)))
        }
    }

    @Test func theIOS27GateEndsALaunchWithSceneLifecycleRequired() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "27.0"}"#)
            try server.createApp(#"{"id": "old", "device": "d", "bundleId": "com.example.old"}"#)
            let reply = try server.postEvents("/v1/apps/old/events", #"{"type": "launch"}"#)
            #expect(reply.entries.map { $0["kind"] as? String } == ["termination"])
            let app = try server.get("/v1/apps/old").object
            #expect(app["state"] as? String == "notRunning")
            #expect((app["termination"] as? [String: Any])?["reason"] as? String == "sceneLifecycleRequired")
        }
    }

    @Test func aRejectedBatchReportsTheStateAfterTheRollback() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
            let reply = try server.post(
                "/v1/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}, {"type": "unlock"}]"#)
            expectProblem(reply, status: 409, code: "invalid-transition")
            #expect(reply.string("state") == "notRunning")
            #expect(reply.int("index") == 2)
        }
    }

    @Test func anExplicitNullSceneDisconnectDelayIsTheDefault() throws {
        try withDaemon { server in
            let reply = try server.createDevice(#"{"id": "p", "idiom": "pad", "sceneDisconnectDelay": null}"#)
            #expect(reply.object["sceneDisconnectDelay"] is NSNull)
            expectProblem(
                try server.post("/v1/devices", #"{"id": "q", "sceneDisconnectDelay": -1}"#), status: 400,
                code: "invalid-field")
        }
    }
}
