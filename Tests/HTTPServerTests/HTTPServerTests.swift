import Dispatch
import HTTPServer
import Locking
import TestSupport
import Testing

@Suite struct HTTPServerTests {
    @Test func startOnPortZeroReportsTheRealPort() throws {
        try withServer({ _, completion in completion(textResponse("ok")) }) { server in
            #expect(server.port > 0)
            #expect(server.port != 8080)
        }
    }

    @Test func aSynchronousAnswerIsSentWithContentLength() throws {
        try withServer({ request, completion in
            completion(
                HTTPResponse(
                    status: 201, headers: [("Content-Type", "application/json")], body: Array(#"{"id":"a1"}"#.utf8)))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            let response = try client.request(path: "/v1/apps")
            #expect(response.status == 201)
            #expect(response.text == #"{"id":"a1"}"#)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == "11")
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try withServer({ request, completion in completion(textResponse(request.path)) }) { server in
            let client = try TestHTTPClient(port: server.port)
            for index in 0..<10 {
                let response = try client.request(path: "/item/\(index)")
                #expect(response.status == 200)
                #expect(response.text == "/item/\(index)")
                #expect(response.header("Connection")?.lowercased() != "close")
            }
        }
    }

    @Test func pathQueryAndHeadersArriveDecoded() throws {
        let seen = Protected<HTTPRequest?>(nil)
        try withServer({ request, completion in
            seen.set(request.detached())
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            let response = try client.request(
                path: "/v1/apps/a%201?x=1&y=hello%20world&x=2&flag",
                headers: [("X-Request-Id", "r-42"), ("Accept", "application/json")]
            )
            #expect(response.status == 200)
            let request = try #require(seen.get())
            #expect(request.method == "GET")
            #expect(request.path == "/v1/apps/a 1")
            #expect(request.query == ["x": "2", "y": "hello world", "flag": ""])
            #expect(request.header("x-request-id") == "r-42")
            #expect(request.header("ACCEPT") == "application/json")
            #expect(request.header("X-Missing") == nil)
            #expect(request.body.isEmpty)
        }
    }

    @Test func aPostBodyReachesTheResponder() throws {
        try withServer({ request, completion in
            completion(HTTPResponse(status: 200, body: request.body))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            let body = Array(#"{"event":"applicationDidBecomeActive"}"#.utf8)
            let response = try client.request(method: "POST", path: "/v1/events", body: body)
            #expect(response.status == 200)
            #expect(response.body == body)
            let large = [UInt8](repeating: 0x61, count: 200_000)
            #expect(try client.request(method: "POST", path: "/v1/events", body: large).body == large)
        }
    }

    @Test func aDeferredAnswerCompletedFromAnotherThreadIsSent() throws {
        try withServer({ request, completion in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(150)) {
                completion(textResponse("late " + request.path))
            }
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            let start = DispatchTime.now().uptimeNanoseconds
            let first = try client.request(path: "/one")
            #expect(first.status == 200)
            #expect(first.text == "late /one")
            #expect(DispatchTime.now().uptimeNanoseconds - start >= 140_000_000)
            // The resumed connection stays usable.
            #expect(try client.request(path: "/two").text == "late /two")
        }
    }

    @Test func extraCompletionsAreIgnored() throws {
        try withServer({ _, completion in
            completion(textResponse("first"))
            completion(textResponse("second", status: 500))
            DispatchQueue.global().async { completion(textResponse("third", status: 500)) }
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            for _ in 0..<3 {
                let response = try client.request(path: "/")
                #expect(response.status == 200)
                #expect(response.text == "first")
            }
        }
    }

    /// 128 and 256: libmicrohttpd's own epoll loop stalls at exactly 128·k ready connections (see BurstTests).
    @Test(arguments: [128, 256])
    func manyConcurrentClientsAreAllAnswered(count: Int) throws {
        try withServer(
            { request, completion in
                if request.query["defer"] != nil {
                    DispatchQueue.global().async { completion(textResponse(request.path)) }
                } else {
                    completion(textResponse(request.path))
                }
            }
        ) { server in
            let clients = try (0..<count).map { _ in try TestHTTPClient(port: server.port) }
            for round in 0..<5 {
                for (index, client) in clients.enumerated() {
                    let query = index % 2 == 0 ? "?defer=1" : ""
                    try client.sendRequest(path: "/c/\(index)/\(round)\(query)")
                }
                for (index, client) in clients.enumerated() {
                    let response = try client.readResponse()
                    #expect(response.status == 200)
                    #expect(response.text == "/c/\(index)/\(round)")
                }
            }
        }
    }

    @Test func startFailsClearlyWhenThePortIsTaken() throws {
        try withServer({ _, completion in completion(textResponse("ok")) }) { server in
            var configuration = HTTPServerConfiguration()
            configuration.port = server.port
            let second = HTTPServer(
                configuration: configuration,
                responder: ClosureResponder { _, completion in completion(textResponse("ok")) },
                logger: testLogger
            )
            #expect(
                throws: HTTPServerError.cannotListen(
                    host: "127.0.0.1", port: server.port, reason: "Address already in use")
            ) {
                try second.start()
            }
        }
    }

    @Test func startRejectsAHostThatIsNotAnAddress() {
        var configuration = HTTPServerConfiguration()
        configuration.host = "example.com"
        configuration.port = 0
        let server = HTTPServer(
            configuration: configuration,
            responder: ClosureResponder { _, completion in completion(textResponse("ok")) },
            logger: testLogger
        )
        #expect(throws: HTTPServerError.invalidHost("example.com")) { try server.start() }
    }

    @Test func ipv6LoopbackWorks() throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "::1"
        configuration.port = 0
        let server = HTTPServer(
            configuration: configuration,
            responder: ClosureResponder { _, completion in completion(textResponse("ok")) },
            logger: testLogger
        )
        try server.start()
        defer { server.stop() }
        #expect(server.port > 0)
    }
}
