import Dispatch
import HTTPServer
import Locking
import TestSupport
import Testing

/// A `ByteStream`: a body written on another thread, sent as it is written through a bounded buffer; a body
/// that cannot be completed is cut (no last chunk), never ended short; read in process, it comes whole.
@Suite struct ByteStreamTests {
    /// Answers `/bytes` with `stream`, anything else `ok`.
    static func serve(_ stream: ByteStream)
        -> @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void
    {
        { request, completion in
            if request.path == "/bytes" {
                completion(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], stream: stream.http))
            } else {
                completion(textResponse("ok"))
            }
        }
    }

    @Test func theWriterWaitsWhileTheBufferIsFullAndGoesOnAsTheClientReads() throws {
        let closed = Protected(0)
        let stream = ByteStream(capacity: 1024, onClose: { closed.update { $0 += 1 } })
        let room = Protected(0)
        try withServer(Self.serve(stream)) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRequest(path: "/bytes")
            #expect(try client.readHead().status == 200)
            var written: [UInt8] = []
            var read: [UInt8] = []
            var pieces = 0
            func write() {
                let bytes = [UInt8](repeating: UInt8(ascii: "a") + UInt8(pieces % 26), count: 300)
                #expect(stream.write(bytes))
                written += bytes
                pieces += 1
            }
            // The client reads nothing: once the socket's buffers are full the stream's fills, and the writer is
            // told to wait (the bound only stops a stream that never fills from looping for ever). The stream may
            // fill while the server still moves its bytes into the socket's buffers, which announces room: the
            // writer then writes on, until the stream stays full for half a second.
            var full = false
            while written.count < 256 << 20 {
                let announced = room.get()
                if !stream.hasRoom(orWhenRoom: { room.update { $0 += 1 } }) {
                    if !eventually(seconds: 0.5, { room.get() > announced }) {
                        full = true
                        break
                    }
                    continue
                }
                write()
            }
            #expect(full, "the stream never stayed full though the client read nothing")
            // What waits is at most the buffer and the last write.
            #expect(stream.bufferedBytes <= 1024 + 300)
            let announced = room.get()
            // The client reads: room is announced (before the bytes that made it are sent, so this ends).
            while room.get() == announced, let chunk = try client.readChunk() { read += chunk }
            #expect(room.get() == announced + 1)
            // The writer goes on, waiting whenever the buffer is full.
            for _ in 0..<40 {
                while !stream.hasRoom(orWhenRoom: { room.update { $0 += 1 } }) {
                    #expect(stream.bufferedBytes <= 1024 + 300)
                    if let chunk = try client.readChunk() { read += chunk }
                }
                write()
            }
            stream.finish()
            while let chunk = try client.readChunk() { read += chunk }
            #expect(read == written)
            #expect(eventually { closed.get() == 1 && stream.bufferedBytes == 0 })
            // The connection stays usable after the body ended.
            #expect(try client.request(path: "/after").status == 200)
        }
    }

    @Test func aBodyThatCannotBeCompletedIsCutWithoutItsLastChunk() throws {
        let closed = Protected(0)
        let stream = ByteStream(capacity: 1 << 16, onClose: { closed.update { $0 += 1 } })
        try withServer(Self.serve(stream)) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRequest(path: "/bytes")
            #expect(try client.readHead().status == 200)
            stream.write(Array("the first part".utf8))
            #expect(try client.readChunk() == Array("the first part".utf8))
            stream.write(Array(" and some more".utf8))
            stream.cut(instead: textResponse("instead", status: 500))
            #expect(try client.readChunk() == Array(" and some more".utf8))
            // No last chunk: the connection is closed where it stood.
            #expect(throws: TestClientError.self) { try client.readChunk() }
            #expect(eventually { closed.get() == 1 })
            #expect(!stream.write(Array("later".utf8)), "a closed stream takes no more")
        }
    }

    @Test func aServerThatStopsCutsABodyThatIsNotComplete() throws {
        let stream = ByteStream(capacity: 1 << 16, onClose: {})
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(
            configuration: configuration, responder: ClosureResponder(handler: Self.serve(stream)), logger: testLogger)
        try server.start()
        let client = try TestHTTPClient(port: server.port)
        try client.sendRequest(path: "/bytes")
        _ = try client.readHead()
        stream.write(Array("part".utf8))
        #expect(try client.readChunk() == Array("part".utf8))
        server.stop()
        #expect(throws: TestClientError.self) { try client.readChunk() }
    }

    @Test func readInProcessTheBodyComesWholeOrTheAnswerGivenInstead() throws {
        let whole = ByteStream(capacity: 8, onClose: {})
        let writer = DispatchQueue(label: "writer")
        // A writer on its own queue, resumed by the reader each time the buffer was full.
        let pieces = Protected(0)
        @Sendable func write() {
            while whole.hasRoom(orWhenRoom: { writer.async { write() } }) {
                let next = pieces.update { count -> Int in
                    count += 1
                    return count
                }
                if next > 50 { return whole.finish() }
                whole.write(Array("\(next),".utf8))
            }
        }
        writer.async { write() }
        let answer = ClosureResponder { _, completion in
            completion(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], stream: whole.http))
        }.answer(to: HTTPRequest(method: "GET", target: "/bytes"), within: 10)
        #expect(answer?.status == 200)
        #expect(answer?.stream == nil)
        #expect(answer.map { String(decoding: $0.body, as: UTF8.self) } == (1...50).map { "\($0)," }.joined())

        let cut = ByteStream(capacity: 8, onClose: {})
        cut.write(Array("part".utf8))
        cut.cut(instead: textResponse("the export stopped", status: 409))
        let instead = ClosureResponder { _, completion in
            completion(HTTPResponse(status: 200, stream: cut.http))
        }.answer(to: HTTPRequest(method: "GET", target: "/bytes"), within: 10)
        #expect(instead?.status == 409)
        #expect(instead.map { String(decoding: $0.body, as: UTF8.self) } == "the export stopped")
    }
}
