import Dispatch
import HTTPServer
import LifecycleApplication
import Synchronization

/// Where a request's answer goes: an operation's handler calls it once with the response (`done(response)`),
/// at once or later from any thread. It ends the request's bookkeeping (in-flight count, metrics, the access
/// log, a namespace's write gate), stamps the request id on the answer and hands it to the server.
///
/// A value, not a closure: a closure capturing all this would be one allocation per request; an `AnswerSink` is
/// passed along without one, and copied into the closures of the requests that wait on a device's queue
/// (allocated anyway).
struct AnswerSink: Sendable {
    private let service: LifecycleService
    private let started: UInt64
    private let match: Route.Match
    /// Whether the route is a resource of one namespace (`Route.isNamespaced`): its namespace's requests count it.
    private let namespaced: Bool
    private let requestID: String
    /// What the access log writes besides the answer; nil when requests are not logged, so that the completion
    /// holds no copy of the request's fields then (set by `RequestMiddleware.access`, which knows the token).
    private var logged: Logged?
    /// The server's completion, which sends the answer.
    private let send: @Sendable (HTTPResponse) -> Void
    /// The namespace's gate the change passed (`WriteGate.enter`), left when it is answered.
    private var gate: WriteGate?

    /// The request as the access log needs it, kept only when requests are logged.
    final class Logged: Sendable {
        let request: HTTPRequest
        let token: String?

        init(_ request: HTTPRequest, token: String?) {
            self.request = request
            self.token = token
        }
    }

    init(
        service: LifecycleService, started: UInt64, match: Route.Match, namespaced: Bool, requestID: String,
        send: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        self.service = service
        self.started = started
        self.match = match
        self.namespaced = namespaced
        self.requestID = requestID
        self.send = send
    }

    /// Has the access log write `logged` with the answer.
    mutating func log(_ logged: Logged) {
        self.logged = logged
    }

    /// The same completion, leaving `gate` when it is answered.
    func leaving(_ gate: WriteGate) -> AnswerSink {
        var done = self
        done.gate = gate
        return done
    }

    func callAsFunction(_ response: HTTPResponse) {
        gate?.leave()
        service.inFlight.subtract(1, ordering: .relaxed)
        let elapsed = DispatchTime.now().uptimeNanoseconds - started
        service.metrics.requests.record(match.route, status: response.status, nanoseconds: elapsed)
        if namespaced {
            // The default namespace (no name in the path) needs no check.
            if let name = match.namespace {
                if NamespaceName.isValid(name) { service.metrics.namespaces.request(name) }
            } else {
                service.metrics.namespaces.request(NamespaceName.defaultName)
            }
        }
        if let logged {
            service.logAccess(
                logged.request, match: match, response: response, nanoseconds: elapsed, token: logged.token,
                id: requestID)
        }
        var response = response
        response.requestID = requestID
        send(response)
    }
}
