import Dispatch
import HTTPServer
import Locking
import TestSupport
import Testing

/// A stream source fed by the test: `push` queues bytes and wakes the stream; counts how often it is asked.
final class PushedSource: HTTPStreamSource, @unchecked Sendable {
    private let state = Protected<(queued: [[UInt8]], finished: Bool, asked: Int, closed: Int)>(([], false, 0, 0))
    private(set) var stream: HTTPStream!

    init() {
        stream = HTTPStream(source: self)
    }

    var asked: Int { state.get().asked }
    var closed: Int { state.get().closed }

    func push(_ text: String) {
        state.update { $0.queued.append(Array(text.utf8)) }
        stream.wake()
    }

    func finish() {
        state.update { $0.finished = true }
        stream.wake()
    }

    func nextChunk() -> HTTPStreamChunk {
        state.update { state in
            state.asked += 1
            if !state.queued.isEmpty { return .bytes(state.queued.removeFirst()) }
            return state.finished ? .end : .wait
        }
    }

    func streamClosed() {
        state.update { $0.closed += 1 }
    }
}

@Suite struct StreamTests {
    static func serve(_ source: PushedSource)
        -> @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void)
        -> Void
    {
        { request, completion in
            if request.path == "/stream" {
                completion(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], stream: source.stream))
            } else {
                completion(textResponse("ok"))
            }
        }
    }

    @Test func anIdleStreamIsSuspendedAndResumedWhenItsSourceHasBytes() throws {
        let source = PushedSource()
        try withServer(Self.serve(source)) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRequest(path: "/stream")
            #expect(try client.readHead().status == 200)
            #expect(eventually { server.openStreams == 1 && source.asked == 1 })
            // While suspended, other traffic on the same loop does not make the server ask the source again.
            let other = try TestHTTPClient(port: server.port)
            for _ in 0..<50 { #expect(try other.request(path: "/other").status == 200) }
            #expect(source.asked == 1)
            source.push("first")
            #expect(try client.readChunk() == Array("first".utf8))
            source.push("second")
            #expect(try client.readChunk() == Array("second".utf8))
            source.finish()
            #expect(try client.readChunk() == nil)
            #expect(eventually { source.closed == 1 && server.openStreams == 0 })
            // The connection stays usable after the stream ended.
            #expect(try client.request(path: "/after").status == 200)
        }
    }

    @Test func aClientLeavingASuspendedStreamClosesItAndFreesTheConnection() throws {
        let source = PushedSource()
        try withServer(Self.serve(source)) { server in
            do {
                let client = try TestHTTPClient(port: server.port)
                try client.sendRequest(path: "/stream")
                _ = try client.readHead()
                #expect(eventually { server.openStreams == 1 && source.asked == 1 })
            }
            #expect(eventually { source.closed == 1 && server.openStreams == 0 && server.openConnections == 0 })
            source.push("nobody listens")
            #expect(source.closed == 1)
        }
    }

    @Test func theIdleTimeoutCutsOffASilentConnectionButNotAnIdleStream() throws {
        let source = PushedSource()
        try withServer(configure: { $0.idleTimeoutSeconds = 1 }, Self.serve(source)) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRequest(path: "/stream")
            #expect(try client.readHead().status == 200)
            #expect(eventually { server.openStreams == 1 && source.asked == 1 })
            // Opened after the stream: once the server has cut this one off, the stream has been idle longer.
            let silent = try TestHTTPClient(port: server.port)
            #expect(silent.serverClosed())
            source.push("still here")
            #expect(try client.readChunk() == Array("still here".utf8))
            #expect(server.openStreams == 1)
        }
    }

    @Test func stopEndsASuspendedStreamWithoutWaitingForItsSource() throws {
        let source = PushedSource()
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(
            configuration: configuration, responder: ClosureResponder(handler: Self.serve(source)), logger: testLogger)
        try server.start()
        let client = try TestHTTPClient(port: server.port)
        try client.sendRequest(path: "/stream")
        _ = try client.readHead()
        #expect(eventually { server.openStreams == 1 && source.asked == 1 })
        let started = DispatchTime.now()
        server.stop()
        #expect(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds < 1_000_000_000)
        #expect(try client.readChunk() == nil)
        #expect(source.closed == 1)
    }

    @Test func aStreamTheClientNeverGetsStillClosesItsSource() throws {
        let source = PushedSource()
        let held = Protected<(@Sendable (HTTPResponse) -> Void)?>(nil)
        try withServer({ _, completion in held.set(completion) }) { server in
            do {
                let client = try TestHTTPClient(port: server.port)
                try client.sendRequest(path: "/stream")
                #expect(eventually { held.get() != nil })
            }
            #expect(eventually { server.openConnections == 0 })
            held.get()?(HTTPResponse(status: 200, stream: source.stream))
            #expect(source.closed == 1)
        }
    }
}
