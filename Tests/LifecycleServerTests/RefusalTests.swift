import Foundation
import HTTPServer
import LifecycleTesting
@testable import LifecycleWire
import TestSupport
import Testing

@testable import LifecycleServer

/// The HTTP layer's refusals, over a real socket to the daemon's service: each is the same problem document
/// as the API's own errors, with a code of the one list, its status and title, and the limit where there is one.
@Suite struct RefusalTests {
    /// Sends `raw` (a whole request) on a fresh connection and expects the problem `code`.
    private func expectRefused(
        _ raw: String, code: ProblemCode, limit: Int? = nil, closes: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try withDaemon(transport: .live, maxBodyBytes: 4096) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendBytes(Array(raw.utf8))
            let response = try client.readResponse()
            let problem = try expectProblemDocument(response, code: code, sourceLocation: sourceLocation)
            if let limit { #expect(problem["limit"] as? Int == limit, sourceLocation: sourceLocation) }
            if closes {
                #expect(response.header("Connection")?.lowercased() == "close", sourceLocation: sourceLocation)
                #expect(client.serverClosed(), sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aDeclaredBodyOverTheLimitIsPayloadTooLarge() throws {
        try expectRefused(
            "POST /v1/devices HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n",
            code: .payloadTooLarge, limit: 4096)
    }

    @Test func aChunkedBodyOverTheLimitIsPayloadTooLarge() throws {
        let chunk = String(repeating: "a", count: 3000)
        try expectRefused(
            "POST /v1/devices HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\nbb8\r\n\(chunk)\r\nbb8\r\n\(chunk)\r\n0\r\n\r\n",
            code: .payloadTooLarge, limit: 4096)
    }

    @Test func aLongTargetIsURITooLong() throws {
        try expectRefused(
            "GET /v1/devices?x=\(String(repeating: "a", count: 4100)) HTTP/1.1\r\nHost: localhost\r\n\r\n",
            code: .uriTooLong, limit: 4096)
    }

    @Test(arguments: ["/v1/apps/a%2F1", "/v1/apps/a1%00"])
    func anEncodedSlashOrNULIsAnInvalidPath(path: String) throws {
        try expectRefused("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n", code: .invalidPath)
    }

    @Test func aHundredAndOneQueryParametersAreTooMany() throws {
        let query = (0...100).map { "p\($0)=1" }.joined(separator: "&")
        try expectRefused(
            "GET /v1/devices?\(query) HTTP/1.1\r\nHost: localhost\r\n\r\n", code: .tooManyQueryParameters, limit: 100)
    }

    /// Empty parameters count: thousands of `&` would exhaust libmicrohttpd's memory for the connection, which
    /// would then close without an answer.
    @Test func aQueryOfEmptyParametersIsRefusedWithAnAnswer() throws {
        try expectRefused(
            "GET /v1/devices?a\(String(repeating: "&", count: 2000)) HTTP/1.1\r\nHost: localhost\r\n\r\n",
            code: .tooManyQueryParameters, limit: 100)
    }

    @Test func largeHeaderFieldsAreTooLarge() throws {
        try expectRefused(
            "GET /v1/devices HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "a", count: 17000))\r\n\r\n",
            code: .headerFieldsTooLarge, limit: 16384)
    }

    @Test func twoHostFieldsAreAmbiguous() throws {
        try expectRefused(
            "GET /v1/devices HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n", code: .ambiguousHost)
    }

    @Test func anHTTP11RequestWithoutHostIsMissingIt() throws {
        try expectRefused("GET /v1/devices HTTP/1.1\r\n\r\n", code: .missingHost)
    }

    @Test func aForeignHostIsMisdirectedAndListsTheNamesAllowed() throws {
        try withDaemon(transport: .live) { server in
            let response = try TestHTTPClient(port: server.port).request(
                path: "/v1/devices", headers: [("Host", "evil.example")])
            let problem = try expectProblemDocument(response, code: .misdirectedRequest)
            #expect(problem["allowed"] as? [String] == ["127.0.0.1", "[::1]", "localhost"])
        }
    }

    @Test func aChangeFromAForeignPageOrCrossSiteIsACrossOriginRequest() throws {
        try expectRefused(
            "POST /v1/reset HTTP/1.1\r\nHost: localhost\r\nOrigin: https://evil.example\r\nContent-Length: 0\r\n\r\n",
            code: .crossOriginRequest)
        try expectRefused(
            "POST /v1/reset HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: cross-site\r\nContent-Length: 0\r\n\r\n",
            code: .crossOriginRequest)
    }

    @Test func anAmbiguousBodyIsRefusedAndTheConnectionClosed() throws {
        try expectRefused(
            "POST /v1/devices HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}",
            code: .ambiguousContentLength, closes: true)
        try expectRefused(
            "POST /v1/devices HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n{}",
            code: .unsupportedTransferEncoding, closes: true)
    }

    @Test func aBodyThatIsNotJSONIsAnUnsupportedMediaType() throws {
        try expectRefused(
            "POST /v1/devices HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}",
            code: .unsupportedMediaType)
    }

    /// Every refusal, the shutdown's included, renders to a code of the one list.
    @Test(arguments: [
        HTTPRefusal.bodyTooLarge(bytes: 9, limit: 8), .bodyTooLarge(bytes: nil, limit: 8),
        .targetTooLong(bytes: 9, limit: 8), .invalidPath(.encodedNUL), .invalidPath(.encodedSlash),
        .invalidPath(.nulByte), .tooManyQueryParameters(count: 9, limit: 8), .headerFieldsTooLarge(bytes: 9, limit: 8),
        .severalHosts(count: 2), .missingHost, .misdirected(host: "x", allowed: ["localhost"]),
        .crossOrigin(origin: "https://x", allowed: []), .crossSite, .severalContentLengths(["1", "2"]),
        .contentLengthWithTransferEncoding, .unsupportedTransferEncoding("gzip"), .malformedFieldName("A B"),
        .malformedFieldValue("X-A"), .shuttingDown,
    ])
    func everyRefusalIsAProblemOfTheList(refusal: HTTPRefusal) throws {
        let response = APIError(refusal).response
        let object = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let code = try #require(ProblemCode(rawValue: object["code"] as? String ?? ""))
        #expect(response.status == code.status)
        #expect(object["type"] as? String == "https://lifecycled.dev/problems/\(code.rawValue)")
        #expect(object["title"] as? String == code.title)
        #expect(!(object["detail"] as? String ?? "").isEmpty)
    }
}

/// Expects `response` to be a problem document of `code` (type, title, status, a detail) and returns it.
@discardableResult
func expectProblemDocument(
    _ response: TestHTTPResponse, code: ProblemCode, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String: Any] {
    #expect(response.status == code.status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    let object = try #require(
        JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], sourceLocation: sourceLocation)
    #expect(object["type"] as? String == code.typeURI, sourceLocation: sourceLocation)
    #expect(object["code"] as? String == code.rawValue, sourceLocation: sourceLocation)
    #expect(object["title"] as? String == code.title, sourceLocation: sourceLocation)
    #expect(object["status"] as? Int == code.status, sourceLocation: sourceLocation)
    #expect(!(object["detail"] as? String ?? "").isEmpty, sourceLocation: sourceLocation)
    return object
}
