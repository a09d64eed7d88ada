import CMicroHTTPD
import Dispatch
import Locking

/// What an `HTTPStreamSource` hands the server when asked for more of a streamed response.
public enum HTTPStreamChunk: Sendable {
    /// Bytes to send now (an empty array counts as `.wait`).
    case bytes([UInt8])
    /// Nothing to send now: the connection is suspended (no thread, no timer) until `HTTPStream.wake()`.
    case wait
    /// The response is complete: the server ends it (the last chunk) and keeps the connection.
    case end
    /// The response cannot be completed: once what was handed over is sent, the server closes the connection
    /// without the last chunk, so the client sees an incomplete body, never a short one that looks whole. A
    /// reader in process (`collect`), which passes nothing on before the end, gets `instead`.
    case cut(instead: HTTPResponse)
}

/// Produces a streamed response's body. The server pulls it: `nextChunk()` is called on an HTTP thread
/// whenever the client has taken everything handed over so far, so a client that reads slowly is asked
/// less often and nothing piles up in the server.
public protocol HTTPStreamSource: AnyObject, Sendable {
    /// The next bytes of the body. Called on one HTTP thread at a time; must not block.
    func nextChunk() -> HTTPStreamChunk
    /// Called exactly once when the stream is over, whatever the reason: the source said `.end`, the client
    /// left, the server stopped, or the response was never sent. `nextChunk()` is not called afterwards
    /// (read in process, `collect`, it may still be running once).
    func streamClosed()
    /// Whether the body ends by itself (an export), unlike an event stream, which runs until it is closed:
    /// in-process callers (`HTTPResponder.answer`) read it whole, and a server that stops cuts it (`.cut`)
    /// rather than ending it with what was sent. False unless said.
    var isFinite: Bool { get }
}

extension HTTPStreamSource {
    /// An event stream, unless the source says otherwise.
    public var isFinite: Bool { false }
}

/// A response body sent as it is produced (`Transfer-Encoding: chunked`): server-sent events, and bodies
/// written as they are read (`ByteStream`).
///
/// Put it in `HTTPResponse.stream`. While its source has nothing to send, the connection is suspended in
/// libmicrohttpd (it costs no thread and no CPU) and watched only for the client's departure; `wake()`
/// resumes it from any thread. It ends when the source says `.end`, when the client leaves (noticed while
/// suspended too, by the event loop's `DepartureWatch`), or at `HTTPServer.stop()`; the source then hears `streamClosed()` once. Connection limits and the idle
/// timeout do not cut an open stream off: a suspended connection has no timeout, and the head deadline
/// (`ConnectionTable`) only runs between requests.
public final class HTTPStream: Sendable {
    /// Where a stream stands; every transition happens under `state`'s lock.
    enum Phase {
        /// Not yet handed to libmicrohttpd; a `wake()` is remembered. Next: `.running`, or `.closed`.
        case unbound
        /// libmicrohttpd may call the reader. Next: `.suspended` (nothing to send), or `.closed`.
        case running
        /// Suspended in libmicrohttpd, its socket watched for departure. Next: `.running` (a wake, a departure
        /// or the server's stop resumes it).
        case suspended
        /// libmicrohttpd released the response (or never got it), or a reader in process is done. Final.
        case closed
    }

    private struct State: @unchecked Sendable {
        var phase = Phase.unbound
        /// Set by `wake()` while the reader runs, so it asks the source again instead of suspending.
        var wakePending = false
        var clientLeft = false
        var serverStopping = false
        var sourceEnded = false
        /// The source said `.cut`: once `pending` is sent, the connection is closed without the last chunk.
        var sourceCut = false
        /// Read in process (`collect`): what resumes the reader after a `.wait`, instead of libmicrohttpd.
        var inProcessReader: (@Sendable () -> Void)?
        /// Bytes the source gave that libmicrohttpd has not taken yet, from `offset` on.
        var pending: [UInt8] = []
        var offset = 0
        var source: (any HTTPStreamSource)?
        var connection: OpaquePointer?
        var socket: Int32 = -1
        var worker: LoopContext?
    }

    private let state: Protected<State>
    /// The source's `isFinite`.
    public let isFinite: Bool

    public init(source: any HTTPStreamSource) {
        isFinite = source.isFinite
        state = Protected(State(source: source))
    }

    /// Tells the stream its source may have something to send: resumes the connection if it is suspended.
    /// Safe from any thread, at any time, any number of times; does nothing once the stream is closed.
    public func wake() {
        transition { $0.wakePending = true }
    }

    /// Whether libmicrohttpd is done with the stream (or never got it).
    public var isClosed: Bool { state.withLock { $0.phase == .closed } }

    /// Binds the stream to the connection it answers; the handler then queues the callback response.
    func attach(to connection: OpaquePointer, worker: LoopContext) -> Bool {
        state.withLock { state in
            guard state.phase == .unbound else { return false }
            state.phase = .running
            state.connection = connection
            state.socket = lifecycled_mhd_connection_fd(connection)
            state.worker = worker
            return true
        }
    }

    /// The client left while the connection was suspended (`DepartureWatch`): end it with an error.
    func clientDeparted() {
        transition { $0.clientLeft = true }
    }

    /// `HTTPServer.stop()`: end the stream (normally, once the source has nothing more to hand over at once)
    /// and resume it if suspended.
    func stopServing() {
        transition { $0.serverStopping = true }
    }

    /// Applies `change`, then resumes the connection if it was suspended.
    private func transition(_ change: (inout State) -> Void) {
        let resumed = state.withLock { state -> Resumption? in
            change(&state)
            guard state.phase == .suspended else { return nil }
            if let reader = state.inProcessReader {
                state.phase = .running
                return .inProcess(reader)
            }
            guard let connection = state.connection, let worker = state.worker else { return nil }
            state.phase = .running
            return .connection(connection, state.socket, worker)
        }
        guard let resumed else { return }
        guard case .connection(let connection, let socket, let worker) = resumed else {
            if case .inProcess(let reader) = resumed { reader() }
            return
        }
        worker.departures.unwatch(socket)
        // Safe outside the lock: only the transition out of `.suspended` resumes, and libmicrohttpd never frees
        // a suspended connection (the server resumes every stream before stopping its daemons).
        MHD_resume_connection(connection)
        worker.connectionResumed()
    }

    /// libmicrohttpd's content reader: copies up to `capacity` bytes into `buffer`. Returns how many, 0 after
    /// suspending the connection, or libmicrohttpd's end-of-stream (-1) or end-with-error (-2) marks.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while true {
            let step = state.withLock { state -> ReadStep in
                if state.clientLeft || state.phase == .closed { return .fail }
                if state.offset < state.pending.count {
                    let count = min(capacity, state.pending.count - state.offset)
                    state.pending.withUnsafeBytes { bytes in
                        UnsafeMutableRawPointer(buffer).copyMemory(
                            from: bytes.baseAddress! + state.offset, byteCount: count)
                    }
                    state.offset += count
                    if state.offset == state.pending.count {
                        state.pending = []
                        state.offset = 0
                    }
                    return .copied(count)
                }
                if state.sourceCut { return .fail }
                if state.sourceEnded { return .finish }
                state.wakePending = false
                guard let source = state.source else { return .finish }
                return .ask(source)
            }
            guard case .ask(let source) = step else { return step.result }
            // Outside the lock: a source takes locks of its own, and may wake this stream meanwhile.
            let chunk = source.nextChunk()
            let next = state.withLock { state -> ReadStep? in
                switch chunk {
                case .bytes(let bytes) where !bytes.isEmpty:
                    state.pending = bytes
                    state.offset = 0
                    return nil
                case .end:
                    state.sourceEnded = true
                    return nil
                case .cut:
                    state.sourceCut = true
                    return nil
                case .bytes, .wait:
                    // Stopping: the source had its chance to say a last word; the stream ends once it is sent.
                    // A body that ends by itself was not complete: it is cut, not ended.
                    if state.serverStopping {
                        if isFinite { state.sourceCut = true } else { state.sourceEnded = true }
                    }
                    if state.wakePending || state.clientLeft || state.serverStopping { return nil }
                    guard let connection = state.connection else { return .fail }
                    // Under the lock, so a wake from another thread sees `.suspended` only once it is true.
                    MHD_suspend_connection(connection)
                    state.phase = .suspended
                    state.worker?.departures.watch(state.socket, onDeparture: { [self] in clientDeparted() })
                    return .copied(0)
                }
            }
            if let next { return next.result }
        }
    }

    /// libmicrohttpd released the response, or it was never queued: the stream is over.
    func close() {
        let source = state.withLock { state -> (any HTTPStreamSource)? in
            guard state.phase != .closed else { return nil }
            state.phase = .closed
            state.pending = []
            defer { state.source = nil }
            return state.source
        }
        source?.streamClosed()
    }

    /// Who resumes a suspended stream: libmicrohttpd's connection, or a reader in process.
    private enum Resumption {
        case connection(OpaquePointer, Int32, LoopContext)
        case inProcess(@Sendable () -> Void)
    }

    private enum ReadStep {
        case copied(Int)
        case ask(any HTTPStreamSource)
        case finish
        case fail

        var result: Int {
            switch self {
            case .copied(let count): count
            case .ask: 0
            case .finish: -1
            case .fail: -2
            }
        }
    }
}

/// Reading a finite stream in process: the body as a connection would have received it, for callers that hand
/// requests to the responder without a socket (`HTTPResponder.answer`).
extension HTTPStream {
    /// What reading in process came to.
    public enum Collected: Sendable {
        /// The whole body.
        case whole([UInt8])
        /// The source could not complete it: the answer it gives instead.
        case cut(HTTPResponse)
        /// The stream was closed before it ended (`abandon()`, or it was read already).
        case closed
    }

    /// Pulls the source as libmicrohttpd would, from this thread and then from whichever thread wakes the
    /// stream, until it ends; `done` runs once, with what came of it. A stream is read once, by a connection
    /// or in process.
    public func collect(_ done: @escaping @Sendable (Collected) -> Void) {
        let started = state.withLock { state -> Bool in
            guard state.phase == .unbound else { return false }
            state.phase = .running
            return true
        }
        guard started else { return done(.closed) }
        let reader = InProcessReader(done: done)
        state.withLock { state in
            state.inProcessReader = { [self] in DispatchQueue.global().async { self.pull(into: reader) } }
        }
        pull(into: reader)
    }

    /// Reads the body in process for at most `seconds`; nil when it did not end by then (the stream is closed,
    /// so its source stops).
    public func collect(within seconds: Double) -> Collected? {
        let ended = DispatchSemaphore(value: 0)
        let outcome = Protected<Collected?>(nil)
        collect { collected in
            outcome.withLock { $0 = collected }
            ended.signal()
        }
        guard ended.wait(timeout: .now() + seconds) == .success else {
            abandon()
            return nil
        }
        return outcome.withLock { $0 }
    }

    /// Reads the body in process, suspending until it ends.
    public func collect() async -> Collected {
        await withCheckedContinuation { continuation in
            collect { continuation.resume(returning: $0) }
        }
    }

    /// Closes a stream nobody will read on: its source hears `streamClosed()`.
    public func abandon() {
        close()
    }

    /// Pulls until the source waits (the next `wake()` pulls again) or ends.
    private func pull(into reader: InProcessReader) {
        while true {
            let asked = state.withLock { state -> (any HTTPStreamSource)? in
                guard state.phase != .closed else { return nil }
                state.wakePending = false
                return state.source
            }
            guard let source = asked else { return reader.finish(.closed) }
            switch source.nextChunk() {
            case .bytes(let bytes) where !bytes.isEmpty:
                reader.body += bytes
            case .end:
                close()
                return reader.finish(.whole(reader.body))
            case .cut(let instead):
                close()
                return reader.finish(.cut(instead))
            case .bytes, .wait:
                let suspended = state.withLock { state -> Bool in
                    guard !state.wakePending, state.phase == .running else { return false }
                    state.phase = .suspended
                    return true
                }
                if suspended { return }
            }
        }
    }

    /// The body read so far, and who hears how the reading ended (once). Touched by one pull at a time.
    private final class InProcessReader: @unchecked Sendable {
        var body: [UInt8] = []
        private let finished = Once<Void>()
        private let done: @Sendable (Collected) -> Void

        init(done: @escaping @Sendable (Collected) -> Void) {
            self.done = done
        }

        func finish(_ collected: Collected) {
            guard finished.fire(()) else { return }
            body = []
            done(collected)
        }
    }
}
