import Foundation
import LifecycleTesting
import Testing

@testable import LifecycleServer

/// `POST .../apps/{id}/verify`: one request says whether an app's callbacks are the ones expected, and if not,
/// where they first differ.
@Suite struct VerifyTests {
    static let launchAndHome = [
        "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
        "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:",
    ]

    static func body(_ callbacks: [String], _ extra: String = "") -> String {
        let list = callbacks.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"callbacks": [\#(list)]\#(extra)}"#
    }

    static func launchedAndHome(_ server: TestDaemon, path: String = "/v1/apps") throws {
        let created = try server.post(path, #"{"id": "mail", "bundleId": "com.example.mail"}"#)
        try #require(created.status == 201, "\(created.text)")
        try server.postEvents("\(path)/mail/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
    }

    @Test func theCallbacksExpectedHoldExactlyAndAsASubsequence() throws {
        try withDaemon { server in
            try Self.launchedAndHome(server)
            let exact = try server.post("/v1/apps/mail/verify", Self.body(Self.launchAndHome))
            #expect(exact.status == 200, "\(exact.text)")
            #expect(exact.object["holds"] as? Bool == true && exact.string("match") == "exact")
            #expect(exact.int("checked") == 5)
            let some = try server.post(
                "/v1/apps/mail/verify",
                Self.body(
                    ["application:didFinishLaunchingWithOptions:", "applicationDidEnterBackground:"],
                    #", "match": "subsequence""#))
            #expect(some.status == 200 && some.string("match") == "subsequence", "\(some.text)")
            // `next` goes on from the last one compared: nothing after it yet.
            let next = try #require(exact.int("next"))
            let after = try server.post(
                "/v1/apps/mail/verify", Self.body(["applicationWillEnterForeground:"], #", "after": \#(next)"#))
            expectProblem(after, status: 409, code: "verification-failed")
            #expect(after.int("checked") == 0)
        }
    }

    @Test func aDifferenceIsNamedWhereItFirstOccurs() throws {
        try withDaemon { server in
            try Self.launchedAndHome(server)
            var swapped = Self.launchAndHome
            swapped.swapAt(2, 3)
            let reply = try server.post("/v1/apps/mail/verify", Self.body(swapped))
            expectProblem(reply, status: 409, code: "verification-failed")
            #expect(reply.int("index") == 2 && reply.string("expected") == swapped[2])
            // The detail counts as people count (the third callback); `index` counts from 0.
            #expect(
                reply.string("detail")?.hasPrefix("callback 3 is applicationDidBecomeActive:") == true, "\(reply.text)")
            #expect(reply.nested("actual")["selector"] as? String == Self.launchAndHome[2])
            #expect(reply.object["callbacks"] as? [String] == Self.launchAndHome)

            // Fewer than expected: the first missing one; more: the first extra one, nothing expected there.
            let longer = try server.post(
                "/v1/apps/mail/verify", Self.body(Self.launchAndHome + ["applicationWillTerminate:"]))
            expectProblem(longer, status: 409, code: "verification-failed")
            #expect(longer.int("index") == 5 && longer.string("expected") == "applicationWillTerminate:")
            #expect(longer.object["actual"] is NSNull)
            let shorter = try server.post("/v1/apps/mail/verify", Self.body(Array(Self.launchAndHome.prefix(2))))
            #expect(shorter.int("index") == 2 && shorter.object["expected"] is NSNull)

            // Out of order for a subsequence: the first that does not come after the one before it.
            let order = try server.post(
                "/v1/apps/mail/verify",
                Self.body(
                    ["applicationDidEnterBackground:", "applicationDidBecomeActive:"], #", "match": "subsequence""#))
            expectProblem(order, status: 409, code: "verification-failed")
            #expect(order.int("index") == 1 && order.string("expected") == "applicationDidBecomeActive:")
            #expect(order.string("detail")?.hasSuffix("(expected callback 2 of 2)") == true, "\(order.text)")
        }
    }

    @Test func aSessionAndANamespaceNarrowWhatIsCompared() throws {
        try withDaemon { server in
            try Self.launchedAndHome(server, path: "/v1/namespaces/team/apps")
            let reply = try server.post("/v1/namespaces/team/apps/mail/verify", Self.body(Self.launchAndHome))
            #expect(reply.status == 200, "\(reply.text)")
            // Callbacks about a session the app never had: none to compare.
            let none = try server.post(
                "/v1/namespaces/team/apps/mail/verify", Self.body(["sceneDidBecomeActive:"], #", "session": "s9""#))
            expectProblem(none, status: 409, code: "verification-failed")
            #expect(none.int("checked") == 0)
            // Not in the default namespace.
            expectProblem(
                try server.post("/v1/apps/mail/verify", Self.body(Self.launchAndHome)), status: 404, code: "not-found")
        }
    }

    @Test func aBadExpectationIsRefusedByName() throws {
        try withDaemon { server in
            try Self.launchedAndHome(server)
            for (body, field) in [
                (#"{}"#, "callbacks"), (#"{"callbacks": []}"#, "callbacks"), (#"{"callbacks": [""]}"#, "callbacks"),
                (#"{"callbacks": [1]}"#, "callbacks"), (Self.body(["a"], #", "match": "prefix""#), "match"),
                (Self.body(["a"], #", "after": -1"#), "after"), (Self.body(["a"], #", "session": "a b""#), "session"),
                (Self.body(["a"], #", "seq": 1"#), "seq"),
            ] {
                let reply = try server.post("/v1/apps/mail/verify", body)
                expectProblem(reply, status: 400, code: "invalid-field")
                #expect(reply.string("field") == field, "\(body): \(reply.text)")
            }
            expectProblem(try server.post("/v1/apps/nope/verify", Self.body(["a"])), status: 404, code: "not-found")
        }
    }

    /// The largest expectation the schema allows (1,000 selectors of 256 characters, about 260 KB) is compared,
    /// not refused for its size.
    @Test func theLargestExpectationTheSchemaAllowsIsTaken() throws {
        try withDaemon { server in
            try Self.launchedAndHome(server)
            let reply = try server.post(
                "/v1/apps/mail/verify", Self.body(Array(repeating: String(repeating: "x", count: 256), count: 1000)))
            expectProblem(reply, status: 409, code: "verification-failed")
        }
    }

    @Test func callbacksNoLongerRetainedAnswerGone() throws {
        try withDaemon(historyLimit: 4) { server in
            try Self.launchedAndHome(server)
            expectProblem(
                try server.post("/v1/apps/mail/verify", Self.body(Self.launchAndHome)), status: 410, code: "gone")
        }
    }
}
