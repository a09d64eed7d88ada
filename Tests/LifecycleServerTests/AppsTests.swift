import Foundation
import LifecycleCore
import LifecycleTesting
import Testing

@Suite struct AppsTests {
    /// A typo in a delegate configuration would silently change what a test exercises: every selector it names
    /// must be one the daemon knows, and the answer names the nearest one.
    @Test func aSelectorTheDaemonDoesNotKnowIsRefusedWithTheNearestOne() throws {
        try withDaemon { server in
            let typo = try server.post(
                "/v1/apps", #"{"bundleId": "x", "delegate": {"notImplemented": ["applicationDidFinishLaunchin:"]}}"#)
            expectProblem(typo, status: 400, code: "invalid-field")
            #expect(typo.string("field") == "delegate.notImplemented")
            #expect(typo.string("detail")?.hasSuffix("did you mean applicationDidFinishLaunching:?") == true)
            #expect((typo.object["allowed"] as? [String])?.contains("sceneDidBecomeActive:") == true)
            let duration = try server.post(
                "/v1/apps", #"{"bundleId": "x", "delegate": {"durations": {"applicationDidEnterBackgrund:": 3}}}"#)
            #expect(duration.string("field") == "delegate.durations")
            #expect(duration.string("detail")?.hasSuffix("did you mean applicationDidEnterBackground:?") == true)
            // `returns` names only methods that return something.
            let returns = try server.post(
                "/v1/apps", #"{"bundleId": "x", "delegate": {"returns": {"applicationDidEnterBackground:": false}}}"#)
            #expect(returns.string("field") == "delegate.returns")
            #expect(returns.object["allowed"] as? [String] == Selector.returning)
            #expect(try server.get("/v1/apps").items.isEmpty)
            // Scene-delegate methods are known too.
            try server.createApp(#"{"bundleId": "x", "delegate": {"notImplemented": ["sceneDidBecomeActive:"]}}"#)
        }
    }

    /// `delegate.actions` (LIFECYCLE §6): kept and shown as given; a wrong selector, action or field answers 400
    /// naming it and what is allowed, and creates nothing.
    @Test func callbackActionsAreKeptAndMistakesNamed() throws {
        try withDaemon { server in
            let actions =
                #"{"applicationDidEnterBackground:": [{"do": "beginBackgroundTask", "name": "save", "duration": 8}, {"do": "release", "resource": "calendar"}], "applicationDidBecomeActive:": [{"do": "useGPU"}]}"#
            let created = try server.createApp(#"{"id": "a", "bundleId": "x", "delegate": {"actions": \#(actions)}}"#)
            let shown = try #require(created.nested("delegate")["actions"] as? [String: [[String: Any]]])
            #expect(shown["applicationDidEnterBackground:"]?.first?["do"] as? String == "beginBackgroundTask")
            #expect(shown["applicationDidEnterBackground:"]?.first?["duration"] as? Double == 8)
            #expect(shown["applicationDidEnterBackground:"]?.last?["resource"] as? String == "calendar")
            #expect(shown["applicationDidBecomeActive:"]?.count == 1)
            #expect(created.object["resources"] as? [String] == [])
            let home = try server.postEvents("/v1/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            #expect(home.nested("app")["state"] as? String == "background")

            let cases: [(String, String, String)] = [
                (
                    #"{"applicationDidEnterBackgrund:": [{"do": "useGPU"}]}"#, "delegate.actions",
                    "did you mean applicationDidEnterBackground:?"
                ),
                (
                    #"{"applicationDidEnterBackground:": [{"do": "teleport"}]}"#,
                    "delegate.actions.applicationDidEnterBackground:[0].do", "teleport"
                ),
                (
                    #"{"applicationDidEnterBackground:": [{"do": "acquire"}]}"#,
                    "delegate.actions.applicationDidEnterBackground:[0].resource", "required"
                ),
                (
                    #"{"applicationDidEnterBackground:": [{"do": "useGPU", "name": "x"}]}"#,
                    "delegate.actions.applicationDidEnterBackground:[0].name", "name"
                ),
                (
                    #"{"applicationDidEnterBackground:": [{"do": "beginBackgroundTask", "duration": -1}]}"#,
                    "delegate.actions.applicationDidEnterBackground:[0].duration", "duration"
                ),
                (
                    #"{"applicationDidEnterBackground:": {"do": "useGPU"}}"#,
                    "delegate.actions.applicationDidEnterBackground:", "array"
                ),
                (
                    #"{"applicationDidEnterBackground:": [{"do": "showAlert", "style": "popover"}]}"#,
                    "delegate.actions.applicationDidEnterBackground:[0].style", "popover"
                ),
                (
                    #"{"applicationDidEnterBackground:": [{"do": "dismissAlerts", "title": "x"}]}"#,
                    "delegate.actions.applicationDidEnterBackground:[0].title", "title"
                ),
                (
                    #"{"applicationDidEnterBackground:": [\#(Array(repeating: #"{"do": "useGPU"}"#, count: 17).joined(separator: ","))]}"#,
                    "delegate.actions", "at most 16"
                ),
            ]
            for (body, field, words) in cases {
                let refused = try server.post("/v1/apps", #"{"bundleId": "x", "delegate": {"actions": \#(body)}}"#)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == field, "\(body)")
                #expect(refused.string("detail")?.contains(words) == true, "\(body): \(refused.text)")
            }
            #expect(try server.get("/v1/apps").items.count == 1)
        }
    }

    /// `delegate.live` (LIFECYCLE §13): shown on the app, refused with any of the script's fields; a script's
    /// `endBackgroundTask` action ends the task it names.
    @Test func liveDelegateConfiguration() throws {
        try withDaemon { server in
            let created = try server.post("/v1/apps", #"{"id": "live", "bundleId": "x", "delegate": {"live": true}}"#)
            #expect(created.status == 201)
            #expect(created.nested("delegate")["live"] as? Bool == true)
            let scripted = try server.post(
                "/v1/apps", #"{"id": "scripted", "bundleId": "x", "delegate": {"live": false}}"#)
            #expect(scripted.nested("delegate")["live"] == nil)
            for body in [
                #"{"bundleId": "x", "delegate": {"live": true, "durations": {"applicationDidEnterBackground:": 1}}}"#,
                #"{"bundleId": "x", "delegate": {"live": true, "endsTasksOnExpiration": false}}"#,
            ] {
                let refused = try server.post("/v1/apps", body)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == "delegate.live", "\(body)")
            }
            let refused = try server.post("/v1/apps", #"{"bundleId": "x", "delegate": {"live": "yes"}}"#)
            expectProblem(refused, status: 400, code: "invalid-field")
            #expect(refused.string("field") == "delegate.live")
            try server.createApp(
                #"{"id": "saver", "bundleId": "x", "iosVersion": "7.0", "delegate": {"actions": {"applicationDidEnterBackground:": [{"do": "beginBackgroundTask", "name": "save"}], "applicationWillEnterForeground:": [{"do": "endBackgroundTask", "task": 1}]}}}"#
            )
            let home = try server.postEvents("/v1/apps/saver/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            #expect(home.nested("app")["state"] as? String == "background")
            let back = try server.postEvents("/v1/apps/saver/events", #"[{"type": "launch"}]"#)
            #expect(
                back.entries.contains { $0["kind"] as? String == "backgroundTask" && $0["event"] as? String == "ended" }
            )
            let missing = try server.post(
                "/v1/apps",
                #"{"bundleId": "x", "delegate": {"actions": {"applicationDidEnterBackground:": [{"do": "endBackgroundTask"}]}}}"#
            )
            expectProblem(missing, status: 400, code: "invalid-field")
            #expect(missing.string("field") == "delegate.actions.applicationDidEnterBackground:[0].task")
        }
    }

    /// `sensitiveViews` and the snapshot entry (LIFECYCLE §6): hidden views show as hidden; an action naming a
    /// view the app does not list, or a view listed twice, is refused.
    @Test func sensitiveViewsAndTheSnapshot() throws {
        try withDaemon { server in
            try server.createApp(
                #"{"id": "bank", "bundleId": "x", "iosVersion": "7.0", "sensitiveViews": ["balance", "card"], "delegate": {"actions": {"applicationDidEnterBackground:": [{"do": "hideViews", "views": ["card"]}]}}}"#
            )
            let home = try server.postEvents("/v1/apps/bank/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            let snapshot = try #require(home.entries.first { $0["kind"] as? String == "snapshot" })
            #expect(snapshot["visible"] as? [String] == ["balance"])
            #expect(snapshot["hidden"] as? [String] == ["card"])
            #expect(home.nested("app")["hiddenViews"] as? [String] == ["card"])
            #expect(home.nested("app")["sensitiveViews"] as? [String] == ["balance", "card"])
            for (body, field) in [
                (
                    #"{"bundleId": "x", "sensitiveViews": ["a"], "delegate": {"actions": {"applicationDidEnterBackground:": [{"do": "hideViews", "views": ["b"]}]}}}"#,
                    "delegate.actions"
                ),
                (#"{"bundleId": "x", "sensitiveViews": ["a", "a"]}"#, "sensitiveViews"),
                (#"{"bundleId": "x", "sensitiveViews": [""]}"#, "sensitiveViews"),
            ] {
                let refused = try server.post("/v1/apps", body)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == field, "\(body)")
            }
        }
    }

    /// `info.externalAccessoryProtocols` (LIFECYCLE §6): shown as given, `[]` when absent; an empty name is refused.
    @Test func accessoryProtocolsAreKeptAndAnEmptyOneIsRefused() throws {
        try withDaemon { server in
            let created = try server.createApp(
                #"{"id": "dock", "bundleId": "x", "info": {"externalAccessoryProtocols": ["com.example.dock"]}}"#)
            #expect(created.nested("info")["externalAccessoryProtocols"] as? [String] == ["com.example.dock"])
            let plain = try server.createApp(#"{"id": "plain", "bundleId": "x"}"#)
            #expect(plain.nested("info")["externalAccessoryProtocols"] as? [String] == [])
            for body in [
                #"{"bundleId": "x", "info": {"externalAccessoryProtocols": [""]}}"#,
                #"{"bundleId": "x", "info": {"externalAccessoryProtocols": "com.example.dock"}}"#,
            ] {
                let refused = try server.post("/v1/apps", body)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == "info.externalAccessoryProtocols", "\(body)")
            }
            #expect(try server.get("/v1/apps").items.count == 2)
        }
    }

    @Test func aNewcomerCreatesAnAppWithOnlyABundleIdAndDrivesItThroughLaunchAndHome() throws {
        try withDaemon { server in
            let created = try server.post("/v1/apps", #"{"bundleId": "com.example.mail"}"#)
            #expect(created.status == 201)
            let id = try #require(created.string("id"))
            #expect(created.header("Location") == "/v1/apps/\(id)")
            #expect(created.string("state") == "notRunning")
            #expect(created.string("iosVersion") == "17.0")
            let device = try #require(created.string("device"))
            #expect(try server.get("/v1/devices/\(device)").status == 200)

            let launched = try server.postEvents("/v1/apps/\(id)/events", #"{"type": "launch"}"#)
            #expect(launched.nested("app")["state"] as? String == "active")
            let home = try server.postEvents("/v1/apps/\(id)/events", #"{"type": "homeButton"}"#)
            #expect(home.nested("app")["state"] as? String == "suspended")

            let callbacks = try server.get("/v1/apps/\(id)/callbacks")
            #expect(callbacks.status == 200)
            #expect(
                selectors(callbacks.items) == [
                    "application:willFinishLaunchingWithOptions:",
                    "application:didFinishLaunchingWithOptions:",
                    "applicationDidBecomeActive:",
                    "applicationWillResignActive:",
                    "applicationDidEnterBackground:",
                ])
            #expect(callbacks.items.allSatisfy { $0["kind"] as? String == "callback" })
            #expect(callbacks.int("next") == seqs(callbacks.items).last)
        }
    }

    @Test func anAppOnAnOldDeviceGetsTheCallbacksOfItsVersion() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "2.0"}"#)
            let created = try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.old"}"#)
            #expect(created.header("Location") == "/v1/apps/a1")
            #expect(created.string("iosVersion") == "2.0")
            try server.postEvents("/v1/apps/a1/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            let callbacks = try server.get("/v1/apps/a1/callbacks")
            #expect(
                selectors(callbacks.items) == [
                    "applicationDidFinishLaunching:", "applicationDidBecomeActive:", "applicationWillTerminate:",
                ])
            #expect(try server.get("/v1/apps/a1").string("state") == "notRunning")
        }
    }

    /// An app's `iosVersion` is its deployment target (LIFECYCLE §2): above its device's OS it is refused,
    /// naming both versions; an app made without a device gets one that runs its `iosVersion`.
    @Test func anAppAboveItsDevicesOSIsRefusedNamingBothVersions() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "4.3"}"#)
            let refused = try server.post(
                "/v1/apps", #"{"id": "a1", "device": "d1", "bundleId": "x", "iosVersion": "7.0"}"#)
            expectProblem(refused, status: 400, code: "invalid-field")
            #expect(refused.string("field") == "iosVersion")
            #expect(refused.string("detail")?.contains("iOS 7.0") == true)
            #expect(refused.string("detail")?.contains("iOS 4.3") == true)
            #expect(try server.get("/v1/apps").items.isEmpty)
            let own = try server.createApp(#"{"id": "a2", "bundleId": "x", "iosVersion": "7.0"}"#)
            let device = try #require(own.string("device"))
            #expect(try server.get("/v1/devices/\(device)").string("iosVersion") == "7.0")
        }
    }

    /// `info.launchImages` (LIFECYCLE §4): shown as given ([] when absent); a URL launch's first entry names the
    /// image for its scheme; an empty name answers 400 and creates nothing.
    @Test func launchImagesAreKeptAndAURLLaunchShowsItsSchemesImage() throws {
        try withDaemon { server in
            let plain = try server.createApp(#"{"id": "p", "bundleId": "x"}"#)
            #expect(plain.nested("info")["launchImages"] as? [String] == [])
            let created = try server.createApp(
                #"{"id": "a", "bundleId": "x", "info": {"urlSchemes": ["mail"], "launchImages": ["Default", "Default-mail"]}}"#
            )
            #expect(created.nested("info")["launchImages"] as? [String] == ["Default", "Default-mail"])
            let launched = try server.postEvents("/v1/apps/a/events", #"{"type": "launch", "url": "mail://inbox"}"#)
            let first = try #require(launched.entries.first)
            #expect(first["kind"] as? String == "launchImage")
            #expect(first["image"] as? String == "Default-mail")
            let refused = try server.post("/v1/apps", #"{"bundleId": "x", "info": {"launchImages": ["Default", ""]}}"#)
            expectProblem(refused, status: 400, code: "invalid-field")
            #expect(refused.string("field") == "info.launchImages")
            #expect(try server.get("/v1/apps").items.count == 2)
        }
    }

    /// `restorableState` (LIFECYCLE §4): shown as given (null when absent); the state preserved at the background
    /// shows as `preservedState`; anything but an object (or null) answers 400 and creates nothing.
    @Test func restorableStateIsKeptAndItsPreservationShown() throws {
        try withDaemon { server in
            let plain = try server.createApp(#"{"id": "p", "bundleId": "x"}"#)
            #expect(plain.object["restorableState"] is NSNull)
            #expect(plain.object["preservedState"] is NSNull)
            try server.createApp(#"{"id": "a", "bundleId": "x", "restorableState": {"screen": "inbox"}}"#)
            let home = try server.postEvents("/v1/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            let preserved = home.nested("app")["preservedState"] as? [String: Any]
            #expect((preserved?["state"] as? [String: Any])?["screen"] as? String == "inbox")
            #expect(preserved?["savedAt"] as? Double == 0)
            for bad in [#""inbox""#, "[1]", "3"] {
                let refused = try server.post("/v1/apps", #"{"bundleId": "x", "restorableState": \#(bad)}"#)
                expectProblem(refused, status: 400, code: "invalid-field")
                #expect(refused.string("field") == "restorableState")
            }
            #expect(try server.get("/v1/apps").items.count == 2)
        }
    }

    @Test func anAppReadThenDeletedAndMadeAgainUnderItsIdReadsAsTheNewApp() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.first"}"#)
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            // Read twice: the second answer comes from the kept snapshot.
            #expect(try server.get("/v1/apps/a1").string("bundleId") == "com.example.first")
            let first = try server.get("/v1/apps/a1")
            #expect(first.string("state") == "active")
            #expect(try server.delete("/v1/apps/a1").status == 204)
            expectProblem(try server.get("/v1/apps/a1"), status: 404, code: "not-found")
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.second"}"#)
            let again = try server.get("/v1/apps/a1")
            #expect(again.string("bundleId") == "com.example.second")
            #expect(again.string("state") == "notRunning")
            #expect(again.header("ETag") != first.header("ETag"))
        }
    }

    @Test func aDeviceAndItsAppsAreListedAndDeletedTogether() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d1"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            try server.createApp(#"{"id": "a2", "device": "d1", "bundleId": "com.example.b"}"#)
            let listed = try server.get("/v1/apps?device=d1&limit=1")
            #expect(listed.items.map { $0["id"] as? String } == ["a1"])
            #expect(listed.string("next") == "a1")
            let rest = try server.get("/v1/apps?device=d1&limit=1&after=a1")
            #expect(rest.items.map { $0["id"] as? String } == ["a2"])
            #expect(rest.object["next"] is NSNull)
            #expect(try server.get("/v1/devices/d1").object["apps"] as? [String] == ["a1", "a2"])

            #expect(try server.delete("/v1/devices/d1").status == 204)
            expectProblem(try server.get("/v1/apps/a1"), status: 404, code: "not-found")
            expectProblem(try server.get("/v1/devices/d1"), status: 404, code: "not-found")
            #expect(try server.get("/v1/apps").items.isEmpty)
        }
    }
}
