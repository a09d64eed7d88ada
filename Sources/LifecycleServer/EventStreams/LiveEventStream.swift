import Dispatch
import HTTPServer
import LifecycleApplication
import Locking

/// One open `text/event-stream` answer: what every stream kind shares (keep-alive comments, the final event
/// when the server ends it, leaving the hub when it closes). Subclasses say what to send next (`produce`).
///
/// The HTTP server pulls: `nextChunk()` runs whenever the client has taken what was sent, so a client that
/// reads slowly is simply asked less often, and each kind decides how it catches up (a timeline reads on
/// from its cursor in the retained entries; the changes stream keeps only the latest of each resource).
class LiveEventStream: HTTPStreamSource, EventStreamEnding, @unchecked Sendable {
    enum Produced {
        case bytes([UInt8])
        case nothing
        /// The stream's last bytes: it ends once they are sent.
        case last([UInt8])
    }

    private struct Control {
        var keepAliveDue = false
        var ending: EventStreamEnd?
        var finished = false
    }

    private let control = Protected(Control())
    let hub: EventStreamHub
    /// What the request that opened the stream asked to see, and with which `Authorization`: checked again
    /// whenever the tokens change (`EventStreamHub.endRevoked`).
    var access: EventStreamAccess?
    /// The HTTP side; set once in `init`.
    private(set) var http: HTTPStream!

    init(hub: EventStreamHub) {
        self.hub = hub
        http = HTTPStream(source: self)
    }

    /// What to send next; `.nothing` suspends the stream until `http.wake()`. Called on one thread at a time.
    func produce() -> Produced { .nothing }

    /// The stream closed: stop waking it.
    func detach() {}

    final func nextChunk() -> HTTPStreamChunk {
        let (keepAlive, ending, finished) = control.withLock { control in
            defer { control.keepAliveDue = false }
            return (control.keepAliveDue, control.ending, control.finished)
        }
        if finished { return .end }
        if let ending {
            control.withLock { $0.finished = true }
            return .bytes(ending.event)
        }
        switch produce() {
        case .bytes(let bytes): return .bytes(bytes)
        case .last(let bytes):
            control.withLock { $0.finished = true }
            return .bytes(bytes)
        case .nothing: return keepAlive ? .bytes(EventStreamText.keepAlive) : .wait
        }
    }

    final func streamClosed() {
        hub.remove(self)
        detach()
    }

    /// Ends the stream with `event: end` (the first reason given counts).
    func end(_ reason: EventStreamEnd) {
        control.withLock { control in
            if control.ending == nil { control.ending = reason }
        }
        http.wake()
    }

    /// Sends `: keep-alive` unless something else goes out first.
    func keepAlive() {
        control.withLock { $0.keepAliveDue = true }
        http.wake()
    }
}

/// The request an open stream answers, as access tokens judge it.
struct EventStreamAccess: Sendable {
    var method: String
    var scope: AccessScope
    var authorization: String?

    func allowed(by policy: AccessPolicy) -> Bool {
        if case .allowed = policy.decide(method: method, scope: scope, authorization: authorization) { return true }
        return false
    }
}
