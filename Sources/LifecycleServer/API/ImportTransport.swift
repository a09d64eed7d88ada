import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleJSON
import LifecycleScenarios
import Locking

/// An import's steps, handed to the import's staging service (`LifecycleService.stagingService`) as requests
/// the daemon makes itself. The application decides which steps an import may take (`ImportSteps`), from what
/// the route table says of each operation (its `importUse`, declared with its route in `Route.declaration`), and
/// remembers what they created: what the import then writes into the namespace.
final class ImportTransport: ScenarioTransport {
    let service: LifecycleService
    /// The namespace of the steps' paths; nil: `default`, on the unprefixed paths.
    let namespace: String?
    /// Why the import is no longer wanted (its client left, its token was revoked), asked before each step.
    let unwanted: @Sendable () -> String?
    /// What the steps may do, and what they created.
    let steps: ImportSteps
    /// A step waits this long for its answer, in seconds.
    static let timeout = 60.0

    init(
        service: LifecycleService, namespace: String?, unwanted: @escaping @Sendable () -> String? = { nil },
        steps: ImportSteps = ImportSteps()
    ) {
        self.service = service
        self.namespace = namespace
        self.unwanted = unwanted
        self.steps = steps
    }

    /// The devices and apps the import created, in order.
    var created: (devices: [String], apps: [String]) { steps.created }

    func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, headers: [(String, String)], body: [UInt8])
    {
        if let why = unwanted() { throw Refusal(description: why) }
        // As the HTTP server would answer 413; the import stops there.
        if let body, body.count > service.options.maxBodyBytes {
            throw Refusal(
                description: "the body is \(body.count) bytes; a body may be at most \(service.options.maxBodyBytes) "
                    + "bytes (--max-body-bytes)")
        }
        let request = HTTPRequest(
            method: method, target: path, headers: headers.map { (name: $0.0, value: $0.1) }, body: body ?? [])
        let match = Route.match(request.path)
        let operation = match.route.operations.first { $0.method == request.method }
        let step = ImportStep(
            method: request.method, path: request.path,
            inNamespace: match.route.isNamespaced && match.namespace == namespace,
            waits: request.query["wait"] != nil, declared: operation != nil, use: operation?.importUse, id: match.id,
            body: request.body)
        if let why = steps.refusal(of: step) { throw Refusal(description: why) }
        if request.acceptsEventStream {
            throw Refusal(description: "an import reads no event stream: leave out Accept: text/event-stream")
        }
        let answer: InProcessExchange.Answer
        do {
            answer = try InProcessExchange(responder: TrustedRequests(service: service)).exchange(
                method: method, target: path, headers: request.headers, body: request.body, within: Self.timeout)
        } catch {
            throw Refusal(description: error == .eventStream ? "an import reads no event stream" : "\(error)")
        }
        if (200..<300).contains(answer.status) { steps.note(operation?.importUse, answer: answer.body) }
        return (answer.status, answer.headers.map { ($0.name, $0.value) }, answer.body)
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }
}

/// The service as the responder of the requests the daemon makes itself (an import's steps, in the namespace
/// its request was allowed into), which no token needs to allow.
struct TrustedRequests: HTTPResponder {
    let service: LifecycleService

    func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        service.respond(to: request, trusted: true, completion: completion)
    }

    func response(to refusal: HTTPRefusal) -> HTTPResponse { service.response(to: refusal) }
}
