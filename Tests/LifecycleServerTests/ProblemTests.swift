import Foundation
import LifecycleTesting
import Testing

/// Every error answers `application/problem+json` with its code and status.
@Suite struct ProblemTests {
    /// A device `d1` (iOS 7) with an app `a1`, for the requests below.
    private func withFixture(_ body: (TestDaemon) throws -> Void) throws {
        try withDaemon(transport: .live, maxBodyBytes: 4096) { server in
            try server.createDevice(#"{"id": "d1", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a1", "device": "d1", "bundleId": "com.example.a"}"#)
            try body(server)
        }
    }

    @Test(arguments: [
        ("GET", "/v1/apps/nope"),
        ("GET", "/v1/devices/nope"),
        ("DELETE", "/v1/apps/nope"),
        ("DELETE", "/v1/devices/nope"),
        ("GET", "/v1/apps/nope/callbacks"),
        ("GET", "/v1/devices/nope/timeline"),
        ("GET", "/v1/nothing"),
        ("GET", "/v2/apps"),
        // `/` is the dashboard; other paths beside the API are not found.
        ("GET", "/index.html"),
        ("GET", "/dashboard"),
        ("GET", "/v1/apps/a1/unknown"),
        ("GET", "/v1/apps/a1/events/extra/parts"),
    ])
    func anUnknownResourceIsNotFound(method: String, path: String) throws {
        try withFixture { server in
            expectProblem(try server.request(method, path), status: 404, code: "not-found")
        }
    }

    @Test func eventsForAnUnknownAppOrDeviceAreNotFound() throws {
        try withFixture { server in
            expectProblem(
                try server.post("/v1/apps/nope/events", #"{"type": "launch"}"#), status: 404, code: "not-found")
            expectProblem(
                try server.post("/v1/devices/nope/events", #"{"type": "lock"}"#), status: 404, code: "not-found")
            expectProblem(
                try server.post("/v1/apps", #"{"bundleId": "com.example.b", "device": "nope"}"#), status: 404,
                code: "not-found")
        }
    }

    @Test(arguments: ["{not json", "{\"type\": \"launch\",}", "[", "\u{7B}\"type\": \"launch\"} trailing", "nul"])
    func aBodyThatIsNotJSONIsInvalidJSON(body: String) throws {
        try withFixture { server in
            expectProblem(try server.post("/v1/apps/a1/events", body), status: 400, code: "invalid-json")
            expectProblem(try server.post("/v1/devices", body), status: 400, code: "invalid-json")
        }
    }

    @Test func anEventPostWithoutABodyIsInvalidJSON() throws {
        try withFixture { server in
            expectProblem(try server.request("POST", "/v1/apps/a1/events"), status: 400, code: "invalid-json")
        }
    }

    @Test(arguments: [
        ("/v1/devices", #"{"id": "bad id!"}"#, "id"),
        ("/v1/devices", #"{"id": ""}"#, "id"),
        ("/v1/devices", #"{"colour": "red"}"#, "colour"),
        ("/v1/devices", #"{"multitasking": "yes"}"#, "multitasking"),
        ("/v1/devices", #"{"memoryMB": "lots"}"#, "memoryMB"),
        ("/v1/devices", #"{"iosVersion": "seven"}"#, "iosVersion"),
        ("/v1/devices", #"{"iosVersion": 7}"#, "iosVersion"),
        ("/v1/devices", #"{"clock": {"mode": "sundial"}}"#, "clock.mode"),
        ("/v1/devices", #"[]"#, "body"),
        ("/v1/apps", #"{"device": "d1"}"#, "bundleId"),
        ("/v1/apps", #"{"bundleId": 5}"#, "bundleId"),
        ("/v1/apps", #"{"bundleId": "x", "id": "a/b"}"#, "id"),
        ("/v1/apps", #"{"bundleId": "x", "info": {"exitOnSuspend": true}}"#, "info.exitOnSuspend"),
        ("/v1/apps", #"{"bundleId": "x", "iosVersion": "1.0"}"#, "iosVersion"),
        ("/v1/apps/a1/events", #"{"type": "launch", "background": "yes"}"#, "background"),
        ("/v1/apps/a1/events", #"{"type": "launch", "colour": "red"}"#, "colour"),
        ("/v1/apps/a1/events", #"{"kind": "launch"}"#, "type"),
        ("/v1/devices/d1/events", #"{"type": "advanceTime", "seconds": -1}"#, "seconds"),
        ("/v1/devices/d1/events", #"{"type": "interruptionBegan", "kind": "meteor"}"#, "kind"),
        ("/v1/apps", #"{"bundleId": "x", "device": null}"#, "device"),
        (
            "/v1/apps", #"{"bundleId": "x", "delegate": {"returns": {"applicationDidBecomeActive:": null}}}"#,
            "delegate.returns.applicationDidBecomeActive:"
        ),
        ("/v1/devices", #"{"settings": null}"#, "settings"),
        ("/v1/apps", #"{"bundleId": "x", "info": {"urlSchemes": ["mail", ""]}}"#, "info.urlSchemes"),
        ("/v1/apps", #"{"bundleId": "x", "delegate": {"notImplemented": [""]}}"#, "delegate.notImplemented"),
        ("/v1/apps", #"{"bundleId": "x", "delegate": {"durations": {"": 1}}}"#, "delegate.durations"),
        ("/v1/apps", #"{"bundleId": "x", "delegate": {"returns": {"": true}}}"#, "delegate.returns"),
        ("/v1/devices", #"{"clock": {"speed": null}}"#, "clock.speed"),
        ("/v1/devices/d1/events", #"{"type": "bannerNotification", "title": null}"#, "title"),
    ])
    func aBadFieldIsInvalidFieldNamingIt(path: String, body: String, field: String) throws {
        try withFixture { server in
            let reply = try server.post(path, body)
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("field") == field)
        }
    }

    @Test(arguments: [
        "/v1/apps?limit=0", "/v1/apps?limit=1001", "/v1/devices?limit=abc", "/v1/apps/a1/timeline?limit=0",
        "/v1/apps/a1/callbacks?limit=5000", "/v1/devices/d1/timeline?after=-1", "/v1/apps/a1/callbacks?wait=61",
        "/v1/apps?state=sleeping", "/v1/apps/a1/notifications?delivered=maybe",
    ])
    func aQueryOutOfRangeIsInvalidField(path: String) throws {
        try withFixture { server in
            let reply = try server.get(path)
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("field") != nil)
        }
    }

    @Test func anUnknownEventTypeListsTheValidTypes() throws {
        try withFixture { server in
            let reply = try server.post("/v1/apps/a1/events", #"{"type": "teleport"}"#)
            expectProblem(reply, status: 400, code: "unknown-event")
            let validTypes = reply.object["validTypes"] as? [String] ?? []
            #expect(validTypes.contains("launch"))
            #expect(validTypes.contains("homeButton"))
        }
    }

    /// A misspelt name is answered with the closest valid one, in the detail and as `didYouMean`; a name far
    /// from every valid one gets none.
    @Test func aMisspeltNameIsAnsweredWithTheClosestValidOne() throws {
        try withFixture { server in
            let event = try server.post("/v1/apps/a1/events", #"{"type": "lauch"}"#)
            expectProblem(event, status: 400, code: "unknown-event")
            #expect(event.string("didYouMean") == "launch")
            #expect(event.string("detail")?.hasSuffix("; did you mean launch?") == true)
            #expect(try server.post("/v1/apps/a1/events", #"{"type": "teleport"}"#).object["didYouMean"] == nil)
            let member = try server.post("/v1/devices/d1/events", #"{"type": "advanceTime", "secnds": 3}"#)
            expectProblem(member, status: 400, code: "invalid-field")
            #expect(member.string("field") == "secnds")
            #expect(member.string("didYouMean") == "seconds")
            let body = try server.post("/v1/devices", #"{"id": "d9", "iosVersio": "17.0"}"#)
            expectProblem(body, status: 400, code: "invalid-field")
            #expect(body.string("didYouMean") == "iosVersion")
            let value = try server.get("/v1/apps?state=suspnded")
            #expect(value.string("didYouMean") == "suspended")
        }
    }

    @Test func anAppEventOnTheDevicePathIsUnknownThereAndListsDeviceTypes() throws {
        try withFixture { server in
            let reply = try server.post("/v1/devices/d1/events", #"{"type": "launch"}"#)
            expectProblem(reply, status: 400, code: "unknown-event")
            let validTypes = reply.object["validTypes"] as? [String] ?? []
            #expect(validTypes.contains("homeButton"))
            #expect(validTypes.contains("advanceTime"))
            #expect(!validTypes.contains("launch"))
        }
    }

    @Test func anEventThatCannotHappenNowIsAnInvalidTransitionWithTheState() throws {
        try withFixture { server in
            let reply = try server.post("/v1/apps/a1/events", #"{"type": "memoryWarning"}"#)
            expectProblem(reply, status: 409, code: "invalid-transition")
            #expect(reply.string("state") == "notRunning")
        }
    }

    @Test func creatingAnIdThatIsTakenIsAlreadyExists() throws {
        try withFixture { server in
            expectProblem(try server.post("/v1/devices", #"{"id": "d1"}"#), status: 409, code: "already-exists")
            expectProblem(
                try server.post("/v1/apps", #"{"id": "a1", "device": "d1", "bundleId": "x"}"#), status: 409,
                code: "already-exists")
            expectProblem(
                try server.post("/v1/apps", #"{"id": "a1", "bundleId": "x"}"#), status: 409, code: "already-exists")
            #expect(try server.get("/v1/devices").items.count == 1)
        }
    }

    @Test(arguments: [
        ("PUT", "/v1/apps", "GET, POST"),
        ("DELETE", "/v1/devices", "GET, POST"),
        ("POST", "/v1/apps/a1", "GET, DELETE"),
        ("PUT", "/v1/apps/a1/events", "GET, POST"),
        ("GET", "/v1/reset", "POST"),
        ("POST", "/livez", "GET"),
        ("PATCH", "/v1/devices/d1", "GET, DELETE"),
    ])
    func aMethodTheResourceDoesNotTakeIsNotAllowedAndSaysWhichAre(method: String, path: String, allow: String) throws {
        try withFixture { server in
            let reply = try server.request(method, path, body: method == "GET" ? nil : "{}")
            expectProblem(reply, status: 405, code: "method-not-allowed")
            #expect(reply.header("Allow") == allow)
        }
    }

    @Test func aBodyOverTheConfiguredLimitIsPayloadTooLarge() throws {
        try withFixture { server in
            let padding = String(repeating: " ", count: 5000)
            let reply = try server.post("/v1/apps/a1/events", #"{"type": "launch"}"# + padding)
            expectProblem(reply, status: 413, code: "payload-too-large")
            #expect(try server.get("/v1/apps/a1").string("state") == "notRunning")
        }
    }

    /// The body types a web page may send anywhere without asking (and a body without a type) change nothing.
    @Test(arguments: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""])
    func aBodyThatIsNotJSONByItsContentTypeIsUnsupportedMediaType(contentType: String) throws {
        try withFixture { server in
            let reply = try server.request(
                "POST", "/v1/apps/a1/events", body: #"{"type": "launch"}"#, headers: [("Content-Type", contentType)])
            expectProblem(reply, status: 415, code: "unsupported-media-type")
            #expect(try server.get("/v1/apps/a1").string("state") == "notRunning")
        }
    }

    @Test(arguments: [
        ("/v1/apps/a1/events", "null"), ("/v1/apps/a1/events", "[]"), ("/v1/apps/a1/events", "[1, 2]"),
        ("/v1/apps/a1/events", "\"launch\""), ("/v1/apps/a1/events", #"{"type": 5}"#),
        ("/v1/apps/a1/events", #"{"type": "endBackgroundTask", "task": 1.5}"#),
        ("/v1/apps/a1/events", #"{"type": "endBackgroundTask", "task": 1e300}"#),
        ("/v1/apps/a1/events", #"{"type": "switchApp"}"#),
        ("/v1/devices/d1/events", #"{"type": "switchApp", "to": "zz"}"#),
        ("/v1/devices/d1/events", #"{"type": "change", "kind": "orientation", "value": {"deep": [[[[1]]]]}}"#),
        ("/v1/devices/d1/events", #"{"type": "advanceTime", "seconds": 1e400}"#),
        ("/v1/devices/d1/events", String(repeating: "[", count: 3000)),
        ("/v1/devices", #"{"memoryMB": -5}"#), ("/v1/devices", #"{"suspendDelay": -1}"#),
        ("/v1/devices", #"{"clock": {"mode": "realtime", "speed": -1}}"#),
        ("/v1/apps", #"{"bundleId": "x", "memoryMB": 1e20}"#), ("/v1/apps", "\"\u{FFFD}\""),
        ("/v1/apps", #"{"bundleId": "x", "delegate": {"durations": {"a": -1}}}"#),
    ])
    func oddInputIsAClientErrorInProblemJSONNeverAServerError(path: String, body: String) throws {
        try withFixture { server in
            let reply = try server.post(path, body)
            if reply.status >= 300 {
                #expect((400..<500).contains(reply.status), "\(reply.status): \(reply.text)")
                #expect(reply.header("Content-Type") == "application/problem+json")
                #expect(reply.int("status") == reply.status)
                #expect(reply.string("code") != nil)
            }
        }
    }

    @Test func invalidUTF8InABodyIsInvalidJSON() throws {
        try withFixture { server in
            let reply = try BlockingHTTPClient.exchange(
                port: server.port, method: "POST", path: "/v1/devices", headers: [("Content-Type", "application/json")],
                body: Array(#"{"id": "d"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8))
            expectProblem(reply, status: 400, code: "invalid-json")
        }
    }
}
