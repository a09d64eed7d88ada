import Foundation
import LifecycleOpenAPI
import LifecycleWire
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One event of a `text/event-stream`.
struct ServerSentEvent: Sendable {
    var id: String?
    var event: String
    var data: String
}

/// The daemon ended a stream because the reader fell behind what is retained (`event: gone`), as a page read
/// behind it answers `410 gone`.
public struct StreamGone: Error, CustomStringConvertible, Sendable {
    /// The oldest `seq` still retained: read from there.
    public var oldestSeq: Int
    public var description: String {
        "the stream fell behind the retained history; the oldest seq held is \(oldestSeq)"
    }
}

/// The events at `url` as an `EventSource` reads them, over URLSession (which hands a delegate the bytes as
/// they come, on Linux too): after a dropped connection, the daemon's `end` with reason `shutdown`, or a
/// `503 not-ready` from a daemon still recovering, it connects again with `Last-Event-ID`, waiting 0.1 s, then
/// longer up to 5 s while it fails, so nothing is lost or repeated. It ends with the daemon's `end` for any
/// other reason (the app deleted, the namespace reset, the token revoked), throws a refusal as its
/// `LifecycledProblem` and `gone` as `StreamGone`, and stops when its reader stops reading.
final class EventStreamReader: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var session: URLSession?
        var lastEventID: String?
        var status = 0
        var refusal = Data()
        /// Bytes of an unfinished line, and the fields of the event being read.
        var line: [UInt8] = []
        var id: String?
        var event = ""
        var data: [String] = []
        /// Set once the stream is over for good: nothing reconnects.
        var finished = false
        var failures = 0
    }

    private let url: URL
    private let token: String?
    private let continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
    private let state = Mutex(State())

    static func events(url: URL, token: String?) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        AsyncThrowingStream { continuation in
            let reader = EventStreamReader(url: url, token: token, continuation: continuation)
            continuation.onTermination = { _ in reader.finish(nil, cancelling: true) }
            reader.connect()
        }
    }

    private init(url: URL, token: String?, continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation) {
        self.url = url
        self.token = token
        self.continuation = continuation
    }

    private func connect() {
        var request = URLRequest(url: url)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        // A stream is quiet while nothing happens: only the daemon or the reader ends it.
        request.timeoutInterval = 7 * 24 * 3600
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        let started = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            if let id = state.lastEventID { request.setValue(id, forHTTPHeaderField: "Last-Event-ID") }
            state = State(session: session, lastEventID: state.lastEventID, failures: state.failures)
            return true
        }
        guard started else { return session.invalidateAndCancel() }
        session.dataTask(with: request).resume()
    }

    /// Ends the stream for good, with `error` or without; safe from any thread, any number of times.
    /// `cancelling`: the reader stopped reading, so the request still open is cancelled. Otherwise the daemon
    /// ended the stream (`end`, `gone`) or refused it, and its request completes by itself: cancelling a task
    /// while it completes races inside FoundationNetworking's URLSession on Linux (a fatal "Trying to access a
    /// behaviour for a task that in not in the registry", swift-corelibs-foundation issues 3292 and 3296), which
    /// a test process here met once.
    private func finish(_ error: (any Error)?, cancelling: Bool = false) {
        let session = state.withLock { state -> URLSession? in
            guard !state.finished else { return nil }
            state.finished = true
            return state.session
        }
        guard let session else { return }
        if cancelling { session.invalidateAndCancel() } else { session.finishTasksAndInvalidate() }
        continuation.finish(throwing: error)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var events: [ServerSentEvent] = []
        let status = (dataTask.response as? HTTPURLResponse)?.statusCode ?? 0
        state.withLock { state in
            state.status = status
            guard state.status == 200 else {
                if state.refusal.count < 1 << 20 { state.refusal.append(data) }
                return
            }
            for byte in data {
                guard byte == UInt8(ascii: "\n") else {
                    state.line.append(byte)
                    continue
                }
                if state.line.last == UInt8(ascii: "\r") { state.line.removeLast() }
                let line = String(decoding: state.line, as: UTF8.self)
                state.line.removeAll(keepingCapacity: true)
                if line.isEmpty {
                    if !state.data.isEmpty || !state.event.isEmpty {
                        events.append(
                            ServerSentEvent(id: state.id, event: state.event, data: state.data.joined(separator: "\n")))
                        if let id = state.id { state.lastEventID = id }
                    }
                    (state.id, state.event, state.data) = (nil, "", [])
                    continue
                }
                let (field, value) = Self.field(line)
                switch field {
                case "id": state.id = value
                case "event": state.event = value
                case "data": state.data.append(value)
                default: break  // a comment (":") or a field this reader has no use for
                }
            }
        }
        for event in events { deliver(event) }
    }

    private static func field(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }

    private func deliver(_ event: ServerSentEvent) {
        switch event.event {
        case "end":
            let reason = (try? JSONDecoder().decode([String: String].self, from: Data(event.data.utf8)))?["reason"]
            // `shutdown`: the daemon is stopping; the connection closes and the reader connects again.
            if reason != "shutdown" { finish(nil) }
        case "gone":
            let oldest = (try? JSONDecoder().decode([String: Int].self, from: Data(event.data.utf8)))?["oldestSeq"]
            finish(StreamGone(oldestSeq: oldest ?? 0))
        default:
            state.withLock { $0.failures = 0 }
            continuation.yield(event)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let answered = (task.response as? HTTPURLResponse)?.statusCode ?? 0
        let (status, refusal, finished, failures) = state.withLock { state in
            (max(state.status, answered), state.refusal, state.finished, state.failures)
        }
        session.finishTasksAndInvalidate()
        guard !finished else { return }
        if status >= 400 {
            if let document = try? JSONDecoder().decode(Components.Schemas.Problem.self, from: refusal) {
                let problem = LifecycledProblem(status: status, document: document)
                // A daemon starting (recovering its data) answers `503 not-ready` for a moment: it is not a
                // refusal of this stream, which connects again once the daemon is ready.
                let notReady = ProblemCode.notReady
                if !(status == notReady.status && problem.code == notReady.rawValue) { return finish(problem) }
            }
            // Not a problem document: whatever stands in front of the daemon refused it; try again later.
        }
        state.withLock { $0.failures += 1 }
        let delay = min(5, 0.1 * Double(1 << min(failures, 6)))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in connect() }
    }
}
