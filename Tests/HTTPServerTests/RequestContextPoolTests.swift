import Dispatch
import Locking
import TestSupport
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// Request contexts are reused per daemon: one goes back to its pool only when nothing else holds it, emptied,
/// and a request served by a reused context sees nothing of the one before.
@Suite struct RequestContextPoolTests {
    /// A daemon's context as the pool needs it; no daemon runs.
    private func worker() throws -> LoopContext {
        let core = ServerContext(
            responder: ClosureResponder { _, completion in completion(textResponse("ok")) },
            configuration: HTTPServerConfiguration(), logger: testLogger)
        return LoopContext(
            core: core, idleTimeout: .seconds(30), wakeUp: try EventSignal(), departures: try DepartureWatch())
    }

    /// 127.0.0.1.
    private func loopbackClient() throws -> ClientAddress {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x0100_007F)
        let client = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) }
        }
        return try #require(client)
    }

    /// Notes one header field into the request's framing, as the handler's first call does.
    private func note(_ name: String, _ value: String, into request: RequestContext) {
        Array(name.utf8).withUnsafeBytes {
            request.framing.note(name: $0, field: KnownField.of($0)?.field) { value }
        }
    }

    /// Never dereferenced: the pool and the steps used here do not call libmicrohttpd.
    private let connection = OpaquePointer(bitPattern: 0x1000)!
    private let otherConnection = OpaquePointer(bitPattern: 0x2000)!

    @Test func aRecycledContextIsTakenAgainEmptied() throws {
        let worker = try worker()
        let pool = worker.requests
        var request = pool.take(connection: connection, socket: 7, worker: worker, method: "POST", path: "/first")
        let first = ObjectIdentifier(request)
        request.known.note(.origin, at: 1)
        request.query = ["a": "1", "b": "2"]
        note("Content-Length", "5", into: request)
        note("Content-Length", "6", into: request)
        #expect(request.framing.declaredBodyBytes == 5)
        #expect(request.framing.refusal != nil)
        request.body = Array("hello".utf8)
        request.receivedBodyBytes = 5
        request.bodyTooLarge = true
        request.responderCalled = true
        request.refusal = .crossSite
        request.crossOrigin = "http://dash.example"
        request.client = try loopbackClient()
        // Through the synchronous answer to the end: the state must start over.
        _ = request.beginResponding()
        request.complete(with: textResponse("first"))
        #expect(request.responseAfterResponding()?.body == Array("first".utf8))
        request.finish()
        #expect(request.isFinished)

        #expect(pool.recycle(&request))
        #expect(pool.count == 1)
        let reused = pool.take(connection: otherConnection, socket: 9, worker: worker, method: "GET", path: "/second")
        #expect(ObjectIdentifier(reused) == first)
        #expect(pool.count == 0)
        #expect(reused.connection == otherConnection)
        #expect(reused.socket == 9)
        #expect(reused.method == "GET")
        #expect(reused.path == "/second")
        #expect(reused.known.index(of: .origin) == nil)
        #expect(reused.query.isEmpty)
        #expect(reused.framing.refusal == nil)
        #expect(reused.framing.declaredBodyBytes == nil)
        #expect(reused.body.isEmpty)
        #expect(reused.receivedBodyBytes == 0)
        #expect(!reused.bodyTooLarge)
        #expect(!reused.responderCalled)
        #expect(reused.refusal == nil)
        #expect(reused.crossOrigin == nil)
        #expect(reused.client == nil)
        #expect(!reused.isFinished)
        // Receiving again: the responder may be called, and its answer is taken as the first one.
        let seen = reused.beginResponding()
        #expect(seen.header(.origin) == nil && seen.query.isEmpty && seen.body.isEmpty && seen.client == nil)
        reused.complete(with: textResponse("second"))
        #expect(reused.responseAfterResponding()?.body == Array("second".utf8))
        reused.finish()
    }

    @Test func aContextStillHeldIsNotKept() throws {
        let worker = try worker()
        let pool = worker.requests
        var request = pool.take(connection: connection, socket: 7, worker: worker, method: "GET", path: "/")
        // A completion the responder kept after the answer went out.
        let completion: @Sendable (HTTPResponse) -> Void = { [request] response in request.complete(with: response) }
        _ = request.beginResponding()
        completion(textResponse("answer"))
        _ = request.responseAfterResponding()
        request.finish()
        #expect(!pool.recycle(&request))
        #expect(pool.count == 0)
        // The late call reaches the finished request, which ignores it.
        completion(textResponse("late"))
        #expect(request.isFinished)
    }

    @Test func thePoolKeepsAtMostItsLimitAndDrains() throws {
        let worker = try worker()
        let pool = worker.requests
        var requests = (0..<RequestContextPool.limit + 6).map { _ in
            pool.take(connection: connection, socket: 7, worker: worker, method: "GET", path: "/")
        }
        var kept = 0
        while !requests.isEmpty {
            var request = requests.removeLast()
            request.finish()
            if pool.recycle(&request) { kept += 1 }
        }
        #expect(kept == RequestContextPool.limit)
        #expect(pool.count == RequestContextPool.limit)
        pool.drain()
        #expect(pool.count == 0)
    }

    @Test func aLargeBodyStorageIsNotKept() throws {
        let worker = try worker()
        let pool = worker.requests
        do {
            var request = pool.take(connection: connection, socket: 7, worker: worker, method: "POST", path: "/")
            request.body = [UInt8](repeating: 1, count: RequestContext.keptBodyCapacity + 1)
            request.finish()
            #expect(pool.recycle(&request))
        }
        do {
            var request = pool.take(connection: connection, socket: 7, worker: worker, method: "POST", path: "/")
            #expect(request.body.isEmpty)
            #expect(request.body.capacity <= RequestContext.keptBodyCapacity)
            // Reserved for a declared body that never came: let go all the same.
            request.body.reserveCapacity(RequestContext.keptBodyCapacity + 1)
            request.finish()
            #expect(pool.recycle(&request))
        }
        let request = pool.take(connection: connection, socket: 7, worker: worker, method: "GET", path: "/")
        #expect(request.body.capacity <= RequestContext.keptBodyCapacity)
    }

    /// Header names arrive exactly as sent, the usual ones included, whatever their case; so do methods.
    @Test func namesAndMethodsArriveAsSent() throws {
        let seen = Protected<[HTTPRequest]>([])
        try withServer(configure: { $0.threads = 1 }) { request, completion in
            seen.update { $0.append(request.detached()) }
            completion(textResponse("ok"))
        } _: { server in
            let client = try TestHTTPClient(port: server.port)
            let headers = [
                ("host", "localhost"), ("Accept-Encoding", "identity"), ("accept-encoding", "gzip"),
                ("User-Agent", "test"), ("Content-TypeX", "a"), ("X-Request-Id", "r-1"), ("Transfer-Encodinh", "b"),
                ("Accept-Language", "en"), ("Idempotency-Key", "k"),
            ]
            #expect(try client.request(path: "/a", headers: headers).status == 200)
            for method in ["PUT", "DELETE", "OPTIONS", "PATCH", "GETS", "POS"] {
                _ = try client.request(method: method, path: "/m", headers: [("Content-Length", "0")])
            }
            let requests = seen.get()
            try #require(requests.count == 7)
            #expect(requests[0].headers.map(\.name) == headers.map(\.0))
            #expect(requests[0].headers.map(\.value) == headers.map(\.1))
            #expect(requests[1...].map(\.method) == ["PUT", "DELETE", "OPTIONS", "PATCH", "GETS", "POS"])
        }
    }

    // MARK: Over HTTP, one event loop, so each request takes the context the one before gave back.

    @Test func aRequestOnAReusedContextSeesNothingOfThePreviousOne() throws {
        let seen = Protected<[HTTPRequest]>([])
        try withServer(
            configure: {
                $0.threads = 1
                $0.allowedOrigins = ["http://dash.example:3000"]
            },
            { request, completion in
                seen.update { $0.append(request.detached()) }
                completion(textResponse(request.path))
            }
        ) { server in
            let client = try TestHTTPClient(port: server.port)
            let first = try client.request(
                method: "POST", path: "/first?a=1&b=2&a=3&flag",
                headers: [("X-One", "1"), ("Origin", "http://dash.example:3000")], body: Array("hello".utf8))
            #expect(first.status == 200)
            #expect(first.header("Access-Control-Allow-Origin") == "http://dash.example:3000")
            // Refused before the responder: its refusal must not outlive it.
            let refused = try client.request(path: "/refused?c=1", headers: [("Host", "evil.example")])
            #expect(refused.status == 400)
            let second = try client.request(path: "/second")
            #expect(second.status == 200)
            #expect(second.text == "/second")
            #expect(second.header("Access-Control-Allow-Origin") == nil)

            let requests = seen.get()
            try #require(requests.count == 2)
            #expect(requests[0].method == "POST")
            #expect(requests[0].query == ["a": "3", "b": "2", "flag": ""])
            #expect(requests[0].header("X-One") == "1")
            #expect(requests[0].body == Array("hello".utf8))
            #expect(requests[1].method == "GET")
            #expect(requests[1].path == "/second")
            #expect(requests[1].query.isEmpty)
            #expect(requests[1].body.isEmpty)
            #expect(requests[1].headers.map(\.name) == ["Host"])
            #expect(requests[1].header("X-One") == nil)
            #expect(requests[1].header("Origin") == nil)
        }
    }

    /// A completion called again after its request was answered must not reach a later request: its context is
    /// not reused while that completion holds it.
    @Test func aKeptCompletionNeverAnswersALaterRequest() throws {
        let kept = Protected<(@Sendable (HTTPResponse) -> Void)?>(nil)
        try withServer(configure: { $0.threads = 1 }) { request, completion in
            if request.path == "/first" {
                kept.set(completion)
                completion(textResponse("first"))
            } else {
                kept.get()?(textResponse("stale"))
                completion(textResponse(request.path))
            }
        } _: { server in
            let client = try TestHTTPClient(port: server.port)
            #expect(try client.request(path: "/first").text == "first")
            for index in 0..<5 {
                #expect(try client.request(path: "/next/\(index)").text == "/next/\(index)")
            }
        }
    }

    /// Parked answers, then synchronous ones, on one loop: a reused context starts from `receiving` again.
    @Test func parkedAndSynchronousRequestsAlternateOnReusedContexts() throws {
        try withServer(configure: { $0.threads = 1 }) { request, completion in
            if request.path.hasPrefix("/parked") {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                    completion(textResponse(request.path))
                }
            } else {
                completion(textResponse(request.path))
            }
        } _: { server in
            let client = try TestHTTPClient(port: server.port)
            for index in 0..<6 {
                let path = index.isMultiple(of: 2) ? "/parked/\(index)" : "/now/\(index)"
                #expect(try client.request(path: path).text == path)
            }
        }
    }
}
