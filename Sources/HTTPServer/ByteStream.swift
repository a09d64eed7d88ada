import Locking

/// A body of known end written on another thread (an export) and sent as it is written, through an
/// `HTTPStream` (chunked). What was written and not yet taken by the connection stays here; while that is
/// `capacity` bytes or more the writer waits (`hasRoom` says no and calls back once the connection took half of
/// it), so a client that reads slowly holds this stream to `capacity` plus one write, whatever the body's size.
///
/// The writer ends it with `finish()`, or with `cut(instead:)` when it cannot complete it: the connection is
/// then closed without the last chunk, so the client sees an incomplete body, never a short one that looks
/// whole. A client that leaves, or the server stopping, closes it: `write` then answers false, no room is
/// ever announced again, and `onClose` runs (once).
public final class ByteStream: HTTPStreamSource, @unchecked Sendable {
    private struct State: @unchecked Sendable {
        var buffer: [UInt8] = []
        /// Where the bytes not yet handed over start in `buffer`.
        var head = 0
        var finished = false
        var cut: HTTPResponse?
        var closed = false
        /// Called once the connection took enough, when the writer found no room.
        var onRoom: (@Sendable () -> Void)?
        var onClose: (@Sendable () -> Void)?
    }

    /// The most bytes held before the writer waits.
    public let capacity: Int
    /// The most bytes handed to the connection at once (libmicrohttpd's block).
    static let chunkBytes = 16 << 10
    private let state: Protected<State>
    /// The HTTP side; set once in `init`.
    public private(set) var http: HTTPStream!

    /// `onClose` runs once, when the stream is over for whatever reason (sent whole, cut, the client left,
    /// the server stopped, or never sent).
    public init(capacity: Int, onClose: @escaping @Sendable () -> Void) {
        self.capacity = capacity
        state = Protected(State(onClose: onClose))
        http = HTTPStream(source: self)
    }

    /// Bytes written and not yet handed to the connection: what this stream holds now.
    public var bufferedBytes: Int { state.withLock { $0.buffer.count - $0.head } }

    /// Appends `bytes`; false once the stream is closed (the writer stops).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let written = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.buffer += bytes
            return true
        }
        if written { http.wake() }
        return written
    }

    /// True while fewer than `capacity` bytes wait: write on. Otherwise `resume` is called once the connection
    /// took half of them (from the thread that took them: hand the work to the writer's own queue), and never
    /// if the stream closes first.
    public func hasRoom(orWhenRoom resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            if state.closed { return false }
            if state.buffer.count - state.head < capacity { return true }
            state.onRoom = resume
            return false
        }
    }

    /// The body is complete: the stream ends once the connection took what waits.
    public func finish() {
        state.withLock { $0.finished = true }
        http.wake()
    }

    /// The body cannot be completed: the connection is closed once it took what waits, without the last
    /// chunk. A reader in process (`HTTPResponder.answer`), which has sent nothing on, gets `instead`.
    public func cut(instead: HTTPResponse) {
        state.withLock { $0.cut = instead }
        http.wake()
    }

    /// A body that ends: read whole in process, cut when the server stops before it is complete.
    public var isFinite: Bool { true }

    /// Up to `chunkBytes` of what waits, `.wait` when nothing does, then `.end` or `.cut`; announces room to a
    /// waiting writer once half the buffer is taken.
    public func nextChunk() -> HTTPStreamChunk {
        let (chunk, room) = state.withLock { state -> (HTTPStreamChunk, (@Sendable () -> Void)?) in
            let waiting = state.buffer.count - state.head
            if waiting == 0 {
                if let cut = state.cut { return (.cut(instead: cut), nil) }
                return (state.finished ? .end : .wait, nil)
            }
            let count = min(waiting, Self.chunkBytes)
            let chunk = Array(state.buffer[state.head..<state.head + count])
            state.head += count
            if state.head == state.buffer.count {
                state.buffer.removeAll(keepingCapacity: state.buffer.capacity <= capacity * 2)
                state.head = 0
            } else if state.head >= capacity / 2 {
                state.buffer.removeFirst(state.head)
                state.head = 0
            }
            var room: (@Sendable () -> Void)?
            if state.buffer.count - state.head <= capacity / 2 { swap(&room, &state.onRoom) }
            return (.bytes(chunk), room)
        }
        room?()
        return chunk
    }

    /// The stream is over: what waits is dropped, the writer is not resumed again, and `onClose` runs.
    public func streamClosed() {
        let onClose = state.withLock { state -> (@Sendable () -> Void)? in
            state.closed = true
            state.buffer = []
            state.head = 0
            state.onRoom = nil
            defer { state.onClose = nil }
            return state.onClose
        }
        onClose?()
    }
}
