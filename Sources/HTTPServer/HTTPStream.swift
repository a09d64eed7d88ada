import CMicroHTTPD
import Locking

/// What an `HTTPStreamSource` hands the server when asked for more of a streamed response.
public enum HTTPStreamChunk: Sendable {
    /// Bytes to send now (an empty array counts as `.wait`).
    case bytes([UInt8])
    /// Nothing to send now: the connection is suspended (no thread, no timer) until `HTTPStream.wake()`.
    case wait
    /// The response is complete: the server ends it (the last chunk) and keeps the connection.
    case end
}

/// Produces a streamed response's body. The server pulls it: `nextChunk()` is called on an HTTP thread
/// whenever the client has taken everything handed over so far, so a client that reads slowly is asked
/// less often and nothing piles up in the server.
public protocol HTTPStreamSource: AnyObject, Sendable {
    /// The next bytes of the body. Called on one HTTP thread at a time; must not block.
    func nextChunk() -> HTTPStreamChunk
    /// Called exactly once when the stream is over, whatever the reason: the source said `.end`, the client
    /// left, the server stopped, or the response was never sent. `nextChunk()` is not called afterwards.
    func streamClosed()
}

/// A response body sent as it is produced (`Transfer-Encoding: chunked`), for server-sent events.
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
        /// libmicrohttpd released the response (or never got it). Final.
        case closed
    }

    private struct State: @unchecked Sendable {
        var phase = Phase.unbound
        /// Set by `wake()` while the reader runs, so it asks the source again instead of suspending.
        var wakePending = false
        var clientLeft = false
        var serverStopping = false
        var sourceEnded = false
        /// Bytes the source gave that libmicrohttpd has not taken yet, from `offset` on.
        var pending: [UInt8] = []
        var offset = 0
        var source: (any HTTPStreamSource)?
        var connection: OpaquePointer?
        var socket: Int32 = -1
        var worker: LoopContext?
    }

    private let state: Protected<State>

    public init(source: any HTTPStreamSource) {
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
        let resumed = state.withLock { state -> (OpaquePointer, Int32, LoopContext)? in
            change(&state)
            guard state.phase == .suspended, let connection = state.connection, let worker = state.worker else {
                return nil
            }
            state.phase = .running
            return (connection, state.socket, worker)
        }
        guard let (connection, socket, worker) = resumed else { return }
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
                case .bytes, .wait:
                    // Stopping: the source had its chance to say a last word; the stream ends once it is sent.
                    if state.serverStopping { state.sourceEnded = true }
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
