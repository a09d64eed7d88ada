import HTTPServer
import Locking
import TestSupport
import Testing

/// Browsers kept out: a foreign `Host` (DNS rebinding) and state-changing requests from foreign web pages.
@Suite struct RequestPolicyTests {
    /// The names a server on 127.0.0.1 answers to besides IP addresses, sorted.
    static let ownNames = ["127.0.0.1", "[::1]", "localhost"]

    private func served(
        allowedHosts: [String] = [], allowedOrigins: [String] = [],
        _ body: (TestHTTPClient, Protected<Int>) throws -> Void
    ) throws {
        try servedCounting(allowedHosts: allowedHosts, allowedOrigins: allowedOrigins, body)
    }

    @Test func aForeignHostIsMisdirected() throws {
        try served { client, calls throws in
            let response = try client.request(path: "/v1/devices", headers: [("Host", "evil.example:8080")])
            #expect(
                response.text
                    == refused(.misdirected(host: "evil.example:8080", allowed: Self.ownNames)))
            #expect(calls.get() == 0)
        }
    }

    /// A connection remembers the `Host` it had accepted, and a different one on the same connection is
    /// still looked at.
    @Test func anotherHostOnTheSameConnectionIsStillChecked() throws {
        try served { client, calls throws in
            #expect(try client.request(path: "/v1/devices", headers: [("Host", "localhost")]).status == 200)
            #expect(try client.request(path: "/v1/devices", headers: [("Host", "localhost")]).status == 200)
            let foreign = try client.request(path: "/v1/devices", headers: [("Host", "evil.example")])
            #expect(foreign.text == refused(.misdirected(host: "evil.example", allowed: Self.ownNames)))
            #expect(try client.request(path: "/v1/devices", headers: [("Host", "localhost")]).status == 200)
            #expect(calls.get() == 3)
        }
    }

    @Test func twoHostFieldsAreRefused() throws {
        try served { client, calls throws in
            let response = try client.request(
                path: "/v1/devices", headers: [("Host", "localhost"), ("Host", "evil.example")])
            #expect(response.text == refused(.severalHosts(count: 2)))
            #expect(calls.get() == 0)
        }
    }

    /// Field names are told regardless of case: a foreign `host` is misdirected as `Host` is, and `Host` with
    /// `HOST` is two of them.
    @Test func hostFieldsAreToldInAnyCase() throws {
        try served { client, calls throws in
            let lower = try client.request(path: "/v1/devices", headers: [("host", "evil.example")])
            #expect(lower.text == refused(.misdirected(host: "evil.example", allowed: Self.ownNames)))
            let three = try client.request(
                path: "/v1/devices", headers: [("Host", "localhost"), ("HOST", "localhost"), ("hOsT", "localhost")])
            #expect(three.text == refused(.severalHosts(count: 3)))
            #expect(calls.get() == 0)
        }
    }

    @Test func anHTTP11RequestWithoutHostIsRefusedButHTTP10IsServed() throws {
        try served { client, calls throws in
            try client.sendBytes(Array("GET /v1/devices HTTP/1.1\r\n\r\n".utf8))
            let response = try client.readResponse()
            #expect(response.text == refused(.missingHost))
            #expect(calls.get() == 0)
            try client.sendBytes(Array("GET /v1/devices HTTP/1.0\r\n\r\n".utf8))
            #expect(try client.readResponse().status == 200)
            #expect(calls.get() == 1)
        }
    }

    /// A DNS-rebinding page sends its own host name; an IP address is never one.
    @Test(arguments: ["localhost:8080", "127.0.0.1", "[::1]:9", "LOCALHOST", "10.1.2.3:8080", "[fe80::1]"])
    func loopbackNamesAreServed(host: String) throws {
        try served { client, calls throws in
            #expect(try client.request(path: "/v1/devices", headers: [("Host", host)]).status == 200)
            #expect(calls.get() == 1)
        }
    }

    @Test func anAllowedHostIsServed() throws {
        try served(allowedHosts: ["sim.internal"]) { client, _ throws in
            #expect(try client.request(path: "/", headers: [("Host", "sim.internal:8080")]).status == 200)
            #expect(
                try client.request(path: "/", headers: [("Host", "other.internal")]).text
                    == refused(.misdirected(host: "other.internal", allowed: Self.ownNames + ["sim.internal"])))
        }
    }

    @Test(arguments: ["POST", "PUT", "PATCH", "DELETE"])
    func aStateChangingRequestFromAForeignPageIsForbidden(method: String) throws {
        try served { client, calls throws in
            for origin in ["https://evil.example", "null", "http://localhost:3000"] {
                let response = try client.request(
                    method: method, path: "/v1/reset", headers: [("Origin", origin)], body: Array("{}".utf8))
                #expect(response.text == refused(.crossOrigin(origin: origin, allowed: [])))
            }
            #expect(calls.get() == 0)
        }
    }

    @Test func aCrossSiteFetchWithoutOriginIsForbidden() throws {
        try served { client, calls throws in
            let response = try client.request(
                method: "POST", path: "/v1/reset", headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(response.text == refused(.crossSite))
            #expect(calls.get() == 0)
        }
    }

    /// A dashboard served by the server itself sends its own origin (`http://` + the Host it used).
    @Test func theServersOwnPagesAndAllowedOriginsMayChangeState() throws {
        try served(allowedOrigins: ["http://dash.example:3000"]) { client, calls throws in
            let own = try client.request(
                method: "POST", path: "/v1/reset",
                headers: [("Origin", "http://localhost"), ("Sec-Fetch-Site", "same-origin")])
            #expect(own.status == 200)
            let allowed = try client.request(
                method: "POST", path: "/v1/reset",
                headers: [("Origin", "http://dash.example:3000"), ("Sec-Fetch-Site", "cross-site")])
            #expect(allowed.status == 200)
            #expect(calls.get() == 2)
        }
    }

    @Test func readsFromAnyPageAreServed() throws {
        try served { client, _ throws in
            let response = try client.request(
                path: "/v1/devices", headers: [("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site")])
            #expect(response.status == 200)
        }
    }
}

/// CORS for the origins the operator allows: the preflight is the edge's to answer, and every answer to such
/// an origin carries the headers that let its page read it; another origin gets none.
@Suite struct CrossOriginTests {
    private func served(_ body: (TestHTTPClient, Protected<Int>) throws -> Void) throws {
        try servedCounting(allowedOrigins: ["http://localhost:18427"], body)
    }

    @Test func aPreflightFromAnAllowedOriginIsAnsweredByTheEdge() throws {
        try served { client, calls throws in
            let response = try client.request(
                method: "OPTIONS", path: "/v1/apps",
                headers: [("Origin", "http://localhost:18427"), ("Access-Control-Request-Method", "POST")])
            #expect(response.status == 204)
            #expect(response.header("Access-Control-Allow-Origin") == "http://localhost:18427")
            #expect(response.header("Access-Control-Allow-Headers")?.contains("Idempotency-Key") == true)
            #expect(response.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
            #expect(calls.get() == 0)
        }
    }

    @Test func anAnswerToAnAllowedOriginIsReadableAndToAnotherIsNot() throws {
        try served { client, calls throws in
            let allowed = try client.request(
                method: "POST", path: "/v1/apps", headers: [("Origin", "HTTP://localhost:18427/")])
            #expect(allowed.status == 200)
            #expect(allowed.header("Access-Control-Allow-Origin") == "HTTP://localhost:18427/")
            #expect(allowed.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
            #expect(allowed.header("Vary") == "Origin")
            let other = try client.request(path: "/v1/apps", headers: [("Origin", "http://evil.example")])
            #expect(other.status == 200)
            #expect(other.header("Access-Control-Allow-Origin") == nil)
            let preflight = try client.request(
                method: "OPTIONS", path: "/v1/apps",
                headers: [("Origin", "http://evil.example"), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.header("Access-Control-Allow-Origin") == nil)
            // The allowed POST, the other origin's GET, and its preflight, which the responder answers as any OPTIONS.
            #expect(calls.get() == 3)
        }
    }
}

/// A server with these allowed hosts and origins whose responder counts its calls and answers `ok`.
private func servedCounting(
    allowedHosts: [String] = [], allowedOrigins: [String] = [], _ body: (TestHTTPClient, Protected<Int>) throws -> Void
) throws {
    let calls = Protected(0)
    try withServer(
        configure: {
            $0.allowedHosts = allowedHosts
            $0.allowedOrigins = allowedOrigins
        },
        { _, completion in
            calls.update { $0 += 1 }
            completion(textResponse("ok"))
        }
    ) { server in try body(TestHTTPClient(port: server.port), calls) }
}
