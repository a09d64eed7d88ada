import CMicroHTTPD
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Queues an `HTTPStream` as a libmicrohttpd callback response (unknown size, so chunked on HTTP/1.1).
enum StreamResponse {
    /// The libmicrohttpd side of one queued stream: the context of its reader and free callbacks.
    private final class Binding: Sendable {
        let stream: HTTPStream
        let core: ServerContext

        init(stream: HTTPStream, core: ServerContext) {
            self.stream = stream
            self.core = core
        }
    }

    /// Bytes of the kernel's send buffer for a stream's socket. A client that stops reading can then hold at
    /// most this much in the kernel (the default grows to megabytes per socket), and the source, asked only
    /// as the client reads, keeps the rest unsent: merged, or skipped past, never queued.
    static let sendBufferBytes: Int32 = 32 << 10

    /// Largest block libmicrohttpd asks the reader for at once.
    private static let blockSize = 16 << 10

    static func queue(_ response: HTTPResponse, stream: HTTPStream, for request: RequestContext) -> MHD_Result {
        let connection = request.connection
        guard request.core.openStreams.insert(stream) else {
            stream.close()
            return ResponseSender.send(request.core.response(to: .shuttingDown), on: connection)
        }
        guard stream.attach(to: connection, worker: request.worker) else {
            request.core.openStreams.remove(stream)
            stream.close()
            return ResponseSender.send(request.core.response(to: .shuttingDown), on: connection)
        }
        var size = sendBufferBytes
        _ = setsockopt(request.socket, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let binding = Unmanaged.passRetained(Binding(stream: stream, core: request.core)).toOpaque()
        guard let created = MHD_create_response_from_callback(UInt64.max, blockSize, read, binding, release) else {
            // libmicrohttpd calls no free callback for a response it did not create.
            release(binding)
            return .NO
        }
        defer { MHD_destroy_response(created) }
        for header in response.headers {
            ResponseSender.add(header.name, header.value, to: created)
        }
        if let requestID = response.requestID {
            ResponseSender.add(HTTPResponse.requestIDField, requestID, to: created)
        }
        let status = (100...599).contains(response.status) ? response.status : 500
        return MHD_queue_response(connection, UInt32(status), created)
    }

    /// `MHD_ContentReaderCallback`.
    private static let read: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return -2 }
        let binding = Unmanaged<Binding>.fromOpaque(context).takeUnretainedValue()
        return Int(binding.stream.read(into: buffer, capacity: capacity))
    }

    /// `MHD_ContentReaderFreeCallback`: libmicrohttpd is done with the response (sent, aborted or stopped).
    private static let release: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let binding = Unmanaged<Binding>.fromOpaque(context).takeRetainedValue()
        binding.core.openStreams.remove(binding.stream)
        binding.stream.close()
    }
}

/// The streams libmicrohttpd holds now, so `stop()` can end them all and resume the suspended ones first.
final class OpenStreams: Sendable {
    private struct State {
        var streams: [ObjectIdentifier: HTTPStream] = [:]
        var closed = false
    }

    private let state = Protected(State())

    var count: Int { state.withLock { $0.streams.count } }

    /// Adds a stream about to be queued; false once `close()` ran (the server is stopping).
    func insert(_ stream: HTTPStream) -> Bool {
        state.withLock { state in
            if state.closed { return false }
            state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
    }

    func remove(_ stream: HTTPStream) {
        _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Refuses further streams and hands back the open ones.
    func close() -> [HTTPStream] {
        state.withLock { state in
            state.closed = true
            return Array(state.streams.values)
        }
    }
}
