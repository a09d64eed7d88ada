import Foundation
import LifecycleTesting
import TestSupport
import Testing

/// Every number a request body can carry, fed with extreme values: the daemon answers each (2xx, or a
/// problem naming the field and its range), keeps running, and a restart replays exactly what it accepted.
@Suite struct ExtremeValuesTests {
    /// Numbers at and past every edge: signs, zero, tiny, whole and fractional, the documented maxima and
    /// one past them, beyond 2^53, and the largest finite doubles.
    static let values = [
        "0", "-0.0", "-1", "0.5", "1", "2", "86400", "86400.5", "1048576", "1048577", "1000000", "1000000.5",
        "1000000000000", "1000000000001", "9007199254740991", "9007199254740993", "1e15", "1.7e308", "-1.7e308",
        "5e-324", "1e-300",
    ]

    /// Request bodies and event batches with `V` where the value goes, by the path they are posted to.
    static let templates: [(path: String, body: String)] = [
        ("/v1/devices", #"{"memoryMB": V}"#),
        ("/v1/devices", #"{"suspendDelay": V}"#),
        ("/v1/devices", #"{"clock": {"mode": "manual", "speed": V}}"#),
        ("/v1/apps", #"{"device": "d", "bundleId": "com.example.x", "memoryMB": V}"#),
        (
            "/v1/apps",
            #"{"device": "d", "bundleId": "com.example.x", "delegate": {"durations": {"applicationDidBecomeActive:": V}}}"#
        ),
        ("/v1/devices/d/events", #"[{"type": "advanceTime", "seconds": V}, {"type": "advanceTime", "seconds": V}]"#),
        ("/v1/devices/d/events", #"{"type": "change", "kind": "batteryLevel", "value": V}"#),
        ("/v1/apps/a/events", #"{"type": "beginBackgroundTask", "name": "t", "duration": V}"#),
        ("/v1/apps/a/events", #"{"type": "endBackgroundTask", "task": V}"#),
        ("/v1/apps/a/events", #"{"type": "advanceTime", "seconds": V}"#),
    ]

    static let reads = [
        "/v1/devices?limit=1000", "/v1/apps?limit=1000", "/v1/devices/d", "/v1/apps/a",
        "/v1/apps/a/timeline?limit=1000",
        "/v1/devices/d/timeline?limit=1000",
    ]

    @Test func everyFieldAnswersEveryExtremeValueAndARestartReplaysWhatWasAccepted() throws {
        try withTemporaryDirectory { directory in
            var before: [String: String] = [:]
            var accepted = 0
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory))
                defer { server.stop() }
                try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
                try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
                try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
                for template in Self.templates {
                    for value in Self.values {
                        let body = template.body.replacingOccurrences(of: "V", with: value)
                        let reply = try server.post(template.path, body)
                        #expect(
                            [200, 201, 400, 409].contains(reply.status), "\(template.path) \(body): \(reply.text)")
                        if reply.status == 400 {
                            expectProblem(reply, status: 400, code: "invalid-field")
                            #expect(reply.string("field") != nil, "\(body): \(reply.text)")
                        } else if reply.status < 300 {
                            accepted += 1
                        }
                    }
                }
                // Whatever was accepted, every time the daemon shows is a number, and it still answers.
                for path in Self.reads {
                    let reply = try server.get(path)
                    #expect(reply.status == 200, "\(path): \(reply.text)")
                    #expect(!reply.text.contains(#""time":null"#), "\(path): \(reply.text)")
                    before[path] = reply.text
                }
            }
            #expect(accepted > 0)
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            for path in Self.reads {
                #expect(try server.get(path).text == before[path], "\(path) changed across the restart")
            }
        }
    }

    /// JSON strings at the edges: empty, escapes, NUL, a lone surrogate, astral characters, long.
    static let strings = [
        #""""#, #""é\\\"\/""#, #""\u0000\u001f""#, #""\ud800""#, #""\ud83d\ude00 😀""#,
        "\"" + String(repeating: "x", count: 20_000) + "\"",
    ]

    /// Every string-valued (or free JSON) field of every event, with `S` where the value goes.
    static let stringTemplates: [(path: String, body: String)] = [
        ("/v1/apps/a/events", #"{"type": "launch", "url": S, "sourceApplication": S}"#),
        ("/v1/apps/a/events", #"{"type": "openURL", "url": S, "sourceApplication": S, "annotation": {"k": S}}"#),
        ("/v1/apps/a/events", #"{"type": "beginBackgroundTask", "name": S}"#),
        ("/v1/apps/a/events", #"{"type": "startBackgroundActivity", "mode": S}"#),
        ("/v1/apps/a/events", #"{"type": "remoteNotification", "payload": {"aps": {"alert": S}}}"#),
        ("/v1/devices/d/events", #"{"type": "bannerNotification", "title": S}"#),
        ("/v1/devices/d/events", #"{"type": "switchApp", "to": S}"#),
        ("/v1/devices/d/events", #"{"type": "change", "kind": "locale", "value": S}"#),
        ("/v1/apps", #"{"device": "d", "bundleId": S, "info": {"urlSchemes": [S]}}"#),
    ]

    @Test func everyStringFieldAnswersEveryEdgeStringAndARestartReplaysWhatWasAccepted() throws {
        try withTemporaryDirectory { directory in
            var before: [String: String] = [:]
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory))
                defer { server.stop() }
                try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
                try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
                try server.postEvents("/v1/apps/a/events", #"{"type": "launch"}"#)
                for template in Self.stringTemplates {
                    for value in Self.strings {
                        let body = template.body.replacingOccurrences(of: "S", with: value)
                        let reply = try server.post(template.path, body)
                        #expect([200, 201, 400, 409].contains(reply.status), "\(template.path) \(body.prefix(200))")
                        if reply.status >= 400 { #expect(reply.header("Content-Type") == "application/problem+json") }
                    }
                }
                for path in Self.reads {
                    let reply = try server.get(path)
                    #expect(reply.status == 200, "\(path): \(reply.text.prefix(200))")
                    #expect(reply.json != nil, "\(path) is not JSON")
                    before[path] = reply.text
                }
            }
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            for path in Self.reads {
                #expect(try server.get(path).text == before[path], "\(path) changed across the restart")
            }
        }
    }

    @Test func theClockStopsAtItsMaximumAndAdvancingPastItAnswers400WithTheRoomLeft() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d"}"#)
            try server.postEvents("/v1/devices/d/events", #"{"type": "advanceTime", "seconds": 999999999000}"#)
            let reply = try server.post("/v1/devices/d/events", #"{"type": "advanceTime", "seconds": 1001}"#)
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("field") == "seconds")
            #expect(reply.string("detail")?.contains("from 0 to 1000") == true, "\(reply.text)")
            try server.postEvents("/v1/devices/d/events", #"{"type": "advanceTime", "seconds": 1000}"#)
            #expect(try server.get("/v1/devices/d").object["time"] as? Double == 1e12)
        }
    }

    @Test(arguments: [
        (#"{"type": "advanceTime", "seconds": 1.7e308}"#, "seconds", "from 0 to 1000000000000"),
        (#"{"type": "advanceTime", "seconds": -1}"#, "seconds", "from 0 to 1000000000000"),
    ])
    func anOutOfRangeNumberNamesItsField(body: String, field: String, range: String) throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "d"}"#)
            let reply = try server.post("/v1/devices/d/events", body)
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("field") == field)
            #expect(reply.string("detail")?.contains(range) == true, "\(reply.text)")
        }
    }

    @Test func aTaskIdOutOfRangeNamesTheRange() throws {
        try withDaemon { server in
            try server.createApp(#"{"id": "a", "bundleId": "com.example.a"}"#)
            let reply = try server.post("/v1/apps/a/events", #"{"type": "endBackgroundTask", "task": 1e300}"#)
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("detail")?.contains("from 1 to 9007199254740991") == true, "\(reply.text)")
        }
    }
}
