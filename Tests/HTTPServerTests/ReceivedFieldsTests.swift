import Dispatch
import HTTPServer
import Locking
import TestSupport
import Testing

/// A received request's header fields are read from libmicrohttpd when asked, until the request is answered: in
/// the handler, and from another thread while the request is parked. `detached()` copies them for later.
@Suite struct ReceivedFieldsTests {
    /// What a handler read of its request, as plain values.
    struct Reading: Equatable, Sendable {
        var requestID, accept, acceptSpelledOtherwise, missingKnown, missingOther, custom: String?
        var headers: [String]
    }

    private static func read(_ request: HTTPRequest) -> Reading {
        Reading(
            requestID: request.header(.requestID), accept: request.header(.accept),
            acceptSpelledOtherwise: request.header("aCcEpT"), missingKnown: request.header(.ifNoneMatch),
            missingOther: request.header("X-Missing"), custom: request.header("x-custom"),
            headers: request.headers.map { "\($0.name): \($0.value)" })
    }

    private static let sent = [
        ("Host", "localhost"), ("X-Request-Id", "r-7"), ("accept", "application/json"),
        ("Accept", "text/event-stream"), ("X-Custom", "a value longer than fifteen bytes"), ("X-Empty", ""),
    ]

    private static let expected = Reading(
        requestID: "r-7", accept: "application/json", acceptSpelledOtherwise: "application/json", missingKnown: nil,
        missingOther: nil, custom: "a value longer than fifteen bytes",
        headers: sent.map { "\($0.0): \($0.1)" })

    @Test func aHandlerReadsEachFieldAsSentTheFirstOfARepeatedOne() throws {
        let seen = Protected<[Reading]>([])
        try withServer(configure: { $0.threads = 1 }) { request, completion in
            seen.update { $0.append(Self.read(request)) }
            completion(textResponse("ok"))
        } _: { server in
            let client = try TestHTTPClient(port: server.port)
            #expect(try client.request(path: "/a", headers: Self.sent).status == 200)
            // The next request on the connection sees only its own fields.
            #expect(try client.request(path: "/b").status == 200)
        }
        let readings = seen.get()
        try #require(readings.count == 2)
        #expect(readings[0] == Self.expected)
        #expect(readings[1].headers.count == 1 && readings[1].headers.first?.hasPrefix("Host: ") == true)
        #expect(readings[1].requestID == nil && readings[1].custom == nil && readings[1].accept == nil)
    }

    @Test func aParkedRequestIsReadFromAnotherThreadBeforeItsAnswer() throws {
        let seen = Protected<[Reading]>([])
        try withServer(configure: { $0.threads = 1 }) { request, completion in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                seen.update { $0.append(Self.read(request)) }
                completion(textResponse("late"))
            }
        } _: { server in
            let client = try TestHTTPClient(port: server.port)
            let response = try client.request(path: "/parked", headers: Self.sent)
            #expect(response.status == 200 && response.text == "late")
        }
        #expect(seen.get() == [Self.expected])
    }

    @Test func aDetachedRequestKeepsItsFieldsAfterTheAnswer() throws {
        let kept = Protected<HTTPRequest?>(nil)
        try withServer(configure: { $0.threads = 1 }) { request, completion in
            if kept.get() == nil { kept.set(request.detached()) }
            completion(textResponse("ok"))
        } _: { server in
            let client = try TestHTTPClient(port: server.port)
            #expect(try client.request(path: "/first", headers: Self.sent).status == 200)
            // The connection's memory now holds another request's fields; the copy does not.
            #expect(try client.request(path: "/second", headers: [("X-Custom", "other")]).status == 200)
        }
        let request = try #require(kept.get())
        #expect(Self.read(request) == Self.expected)
    }

    @Test func aListMadeInProcessIsReadTheSameWay() {
        let request = HTTPRequest(method: "GET", path: "/", headers: Self.sent.map { (name: $0.0, value: $0.1) })
        #expect(Self.read(request) == Self.expected)
        #expect(Self.read(request.detached()) == Self.expected)
    }
}
