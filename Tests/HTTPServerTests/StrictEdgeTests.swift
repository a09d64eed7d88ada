import HTTPServer
import HTTPTestClient
import Testing

/// Requests a proxy in front could read differently, and targets the decoded path would misrepresent:
/// each gets a problem document and never reaches the responder.
@Suite struct StrictEdgeTests {
    static let ambiguousBodies: [(String, Int, String)] = [
        (
            "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n", 400,
            "ambiguous-content-length"
        ),
        ("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", 400, "ambiguous-content-length"),
        (
            "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 400,
            "ambiguous-content-length"
        ),
        ("Transfer-Encoding: gzip\r\n\r\n{}", 501, "unsupported-transfer-encoding"),
        ("Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 501, "unsupported-transfer-encoding"),
    ]

    @Test(arguments: ambiguousBodies)
    func anAmbiguousBodyIsRefusedAndTheConnectionClosed(fields: String, status: Int, code: String) throws {
        let seen = Box<[String]>([])
        try withServer({ request, completion in
            seen.update { $0.append(request.path) }
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port, timeoutSeconds: 3)
            try client.sendBytes(Array("POST /v1/devices HTTP/1.1\r\nHost: localhost\r\n\(fields)".utf8))
            let response = try client.readResponse()
            #expect(response.status == status)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.text.contains(#""code":"\#(code)""#))
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(client.serverClosed())
            #expect(seen.get().isEmpty)
        }
    }

    @Test(arguments: [
        ("/v1/apps/a1%00zzz", 400, "invalid-path"), ("/v1/apps/a%2F1", 400, "invalid-path"),
        ("/v1/apps/a%2f1", 400, "invalid-path"),
        ("/v1/devices?" + (0..<101).map { "p\($0)=1" }.joined(separator: "&"), 400, "too-many-query-parameters"),
        ("/v1/devices?x=" + String(repeating: "a", count: 4100), 414, "uri-too-long"),
        // Enough parameters to exhaust libmicrohttpd's per-connection memory if it parsed them.
        ("/v1/devices?" + (0..<3000).map { "p\($0)=1" }.joined(separator: "&"), 414, "uri-too-long"),
    ])
    func aTargetTheDecodedPathWouldMisrepresentIsRefused(target: String, status: Int, code: String) throws {
        let seen = Box<[String]>([])
        try withServer({ request, completion in
            seen.update { $0.append(request.path) }
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            let response = try client.request(method: "DELETE", path: target)
            #expect(response.status == status)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.text.contains(#""code":"\#(code)""#))
            #expect(seen.get().isEmpty)
            // The boundary was clear: the connection stays usable.
            #expect(try client.request(path: "/v1/apps/a%201?x=%2F").status == 200)
            #expect(seen.get() == ["/v1/apps/a 1"])
        }
    }

    @Test func aHundredQueryParametersAreAccepted() throws {
        try withServer({ request, completion in completion(textResponse("\(request.query.count)")) }) { server throws in
            let query = (0..<100).map { "p\($0)=1" }.joined(separator: "&")
            #expect(try TestHTTPClient(port: server.port).request(path: "/v1/devices?" + query).text == "100")
        }
    }

    @Test func headIsAnsweredLikeGetWithoutTheBody() throws {
        let methods = Box<[String]>([])
        try withServer({ request, completion in
            methods.update { $0.append(request.method) }
            completion(textResponse("hello"))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRequest(method: "HEAD", path: "/v1/devices")
            let head = try client.readResponse(hasBody: false)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "5")
            // No body followed: the next answer on the connection parses cleanly.
            #expect(try client.request(path: "/v1/devices").text == "hello")
            #expect(methods.get() == ["GET", "GET"])
        }
    }
}
