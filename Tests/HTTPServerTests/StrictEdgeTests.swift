import HTTPServer
import Locking
import TestSupport
import Testing

/// Requests a proxy in front could read differently, and targets the decoded path would misrepresent:
/// each is refused (`HTTPRefusal`) and never reaches the responder.
@Suite struct StrictEdgeTests {
    static let ambiguousBodies: [(String, HTTPRefusal)] = [
        (
            "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n",
            .severalContentLengths(["2", "40"])
        ),
        ("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", .severalContentLengths(["2", "2"])),
        (
            "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            .contentLengthWithTransferEncoding
        ),
        ("Transfer-Encoding: gzip\r\n\r\n{}", .unsupportedTransferEncoding("gzip")),
        ("Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", .unsupportedTransferEncoding("gzip, chunked")),
        // Whitespace before the colon, and folded lines, which libmicrohttpd 0.9.75 joins into the name.
        (
            "Transfer-Encoding : chunked\r\nContent-Length: 2\r\n\r\n{}GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n",
            .malformedFieldName("Transfer-Encoding ")
        ),
        (
            "Transfer-Encoding:\r\n chunked\r\nContent-Length: 2\r\n\r\n{}",
            .malformedFieldName("Transfer-Encodingchunked")
        ),
        (
            "X-Pad: a\r\n Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}",
            .malformedFieldName("X-PadTransfer-Encoding: chunked")
        ),
    ]

    @Test(arguments: ambiguousBodies)
    func anAmbiguousBodyIsRefusedAndTheConnectionClosed(fields: String, refusal: HTTPRefusal) throws {
        let seen = Protected<[String]>([])
        try withServer({ request, completion in
            seen.update { $0.append(request.path) }
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port, timeoutSeconds: 30)
            try client.sendBytes(Array("POST /v1/devices HTTP/1.1\r\nHost: localhost\r\n\(fields)".utf8))
            let response = try client.readResponse()
            #expect(response.text == refused(refusal))
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(client.serverClosed())
            #expect(seen.get().isEmpty)
        }
    }

    /// A bare CR (a line end to some readers) or a NUL (the end of a C string) inside a field value: what a
    /// proxy in front passes on may not be what the server reads. libmicrohttpd hands both over as they are.
    @Test(arguments: ["X-A: a\rb\r\n", "X-A: a\u{0}b\r\n", "X-A: a\rContent-Length: 40\r\n"].map(Field.init))
    func aFieldValueWithABareCROrANULIsRefused(field: Field) throws {
        let seen = Protected<[String]>([])
        try withServer({ request, completion in
            seen.update { $0.append(request.header("X-A") ?? "") }
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port, timeoutSeconds: 30)
            try client.sendBytes(
                Array("POST /v1/devices HTTP/1.1\r\nHost: localhost\r\n\(field.text)Content-Length: 2\r\n\r\n{}".utf8))
            let response = try client.readResponse()
            #expect(response.text == refused(.malformedFieldValue("X-A")))
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(seen.get().isEmpty, "\(seen.get().map { Array($0.utf8) })")
        }
    }

    /// What libmicrohttpd ends or joins itself is no NUL of the client's: lines ending in a bare LF, spaces
    /// around a value, an empty value, a value last before the empty line.
    @Test(
        arguments: [
            "X-A: a b  \r\nX-B: c\r\n", "X-A: a b\nX-B: c\n", "X-A:\r\nX-B: c\r\n", "X-A: \tx\t \nX-B: c\r\n",
        ].map(Field.init))
    func ordinaryFieldValuesAreTaken(fields: Field) throws {
        let seen = Protected<[String]>([])
        try withServer({ request, completion in
            seen.update { $0.append(request.header("X-B") ?? "") }
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port, timeoutSeconds: 30)
            try client.sendBytes(Array("POST /v1/devices HTTP/1.1\r\nHost: localhost\r\n\(fields.text)\r\n".utf8))
            let response = try client.readResponse()
            #expect(response.text == "ok")
            #expect(seen.get() == ["c"])
        }
    }

    static let refusedTargets: [(String, HTTPRefusal)] = [
        ("/v1/apps/a1%00zzz", .invalidPath(.encodedNUL)), ("/v1/apps/a%2F1", .invalidPath(.encodedSlash)),
        ("/v1/apps/a%2f1", .invalidPath(.encodedSlash)),
        (
            "/v1/devices?" + (0..<101).map { "p\($0)=1" }.joined(separator: "&"),
            .tooManyQueryParameters(count: 101, limit: 100)
        ),
        ("/v1/devices?x=" + String(repeating: "a", count: 4100), .targetTooLong(bytes: 4114, limit: 4096)),
        // Enough parameters to exhaust libmicrohttpd's per-connection memory if it parsed them.
        (
            "/v1/devices?" + (0..<3000).map { "p\($0)=1" }.joined(separator: "&"),
            .targetTooLong(bytes: 22901, limit: 4096)
        ),
    ]

    @Test(arguments: refusedTargets)
    func aTargetTheDecodedPathWouldMisrepresentIsRefused(target: String, refusal: HTTPRefusal) throws {
        let seen = Protected<[String]>([])
        try withServer({ request, completion in
            seen.update { $0.append(request.path) }
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            let response = try client.request(method: "DELETE", path: target)
            #expect(response.text == refused(refusal))
            #expect(seen.get().isEmpty)
            // The boundary was clear: the connection stays usable.
            #expect(try client.request(path: "/v1/apps/a%201?x=%2F").status == 200)
            #expect(seen.get() == ["/v1/apps/a 1"])
        }
    }

    @Test func headerFieldsOverTheLimitAreRefusedAndTheConnectionStaysUsable() throws {
        let seen = Protected(0)
        try withServer({ _, completion in
            seen.update { $0 += 1 }
            completion(textResponse("ok"))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            // "X-Big: " + value + CRLF, and "Host: localhost" + CRLF sent by the client.
            let value = String(repeating: "a", count: 17000)
            let response = try client.request(path: "/v1/devices", headers: [("X-Big", value)])
            #expect(
                response.text
                    == refused(
                        .headerFieldsTooLarge(bytes: 17000 + 5 + 4 + "Host".count + "localhost".count + 4, limit: 16384)
                    ))
            #expect(seen.get() == 0)
            #expect(try client.request(path: "/v1/devices").status == 200)
        }
    }

    @Test func aHundredQueryParametersAreAccepted() throws {
        try withServer({ request, completion in completion(textResponse("\(request.query.count)")) }) { server throws in
            let query = (0..<100).map { "p\($0)=1" }.joined(separator: "&")
            #expect(try TestHTTPClient(port: server.port).request(path: "/v1/devices?" + query).text == "100")
        }
    }

    @Test func headIsAnsweredLikeGetWithoutTheBody() throws {
        let methods = Protected<[String]>([])
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

/// A header field as sent, shown escaped (a test's output would end at its NUL).
struct Field: CustomTestStringConvertible, Sendable {
    var text: String
    var testDescription: String { text.debugDescription }
}
