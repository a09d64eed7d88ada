import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleJSON
import LifecycleScenarios
import Locking

/// An import's steps, handed to the import's staging service (`LifecycleService.stagingService`) as requests
/// the daemon makes itself, kept to what an import may do: create devices and apps in its namespace and drive,
/// read and delete those alone (each operation's `importUse`, declared with its route in `Route.declaration`). It remembers what it created: what the import then writes into the namespace.
final class ImportTransport: ScenarioTransport {
    let service: LifecycleService
    /// The namespace of the steps' paths; nil: `default`, on the unprefixed paths.
    let namespace: String?
    /// Why the import is no longer wanted (its client left, its token was revoked), asked before each step.
    let unwanted: @Sendable () -> String?
    /// Whether the namespace the import writes into holds a device (`app` false) or an app of that id already.
    let taken: @Sendable (_ id: String, _ app: Bool) -> Bool
    private let made = Protected<(devices: [String], apps: [String])>(([], []))
    /// A step waits this long for its answer, in seconds.
    static let timeout = 60.0

    init(
        service: LifecycleService, namespace: String?, unwanted: @escaping @Sendable () -> String? = { nil },
        taken: @escaping @Sendable (_ id: String, _ app: Bool) -> Bool = { _, _ in false }
    ) {
        self.service = service
        self.namespace = namespace
        self.unwanted = unwanted
        self.taken = taken
    }

    /// The devices and apps the import created, in order.
    var created: (devices: [String], apps: [String]) { made.withLock { $0 } }

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
        try allow(request, match)
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
        if (200..<300).contains(answer.status) { note(request, match, answer: answer.body) }
        return (answer.status, answer.headers.map { ($0.name, $0.value) }, answer.body)
    }

    /// Throws when the step is not one an import may take.
    private func allow(_ request: HTTPRequest, _ match: Route.Match) throws {
        guard match.route.isNamespaced, match.namespace == namespace else {
            throw Refusal(description: "\(request.path) is outside the namespace the import applies to")
        }
        if request.query["wait"] != nil { throw Refusal(description: "an import does not wait: leave out wait") }
        // A method the route does not answer is answered 405, as outside an import.
        let operations = match.route.operations
        guard let operation = operations.first(where: { $0.method == request.method }) else { return }
        let (devices, apps) = created
        switch operation.importUse {
        case .createDevice:
            if let id = (try? JSONParser.parse(request.body))?["id"]?.stringValue, taken(id, false) {
                throw Refusal(description: "device \(id) already exists in the namespace the import applies to")
            }
        case .createApp:
            let body = try? JSONParser.parse(request.body)
            if let id = body?["id"]?.stringValue, taken(id, true) {
                throw Refusal(description: "app \(id) already exists in the namespace the import applies to")
            }
            let device = body?["device"]?.stringValue
            guard let device, !devices.contains(device) else { return }
            throw Refusal(description: "the app is for device \(device), which the import did not create")
        case .ownDevice:
            guard let id = match.id, !devices.contains(id) else { return }
            throw Refusal(description: "the import may touch only the devices it creates, and \(id) is not one")
        case .ownApp:
            guard let id = match.id, !apps.contains(id) else { return }
            throw Refusal(description: "the import may touch only the apps it creates, and \(id) is not one")
        case nil:
            throw Refusal(
                description: "an import creates devices and apps and drives, reads and deletes them; "
                    + "\(request.method) \(request.path) is none of that")
        }
    }

    /// Remembers what a successful step created.
    private func note(_ request: HTTPRequest, _ match: Route.Match, answer: [UInt8]) {
        let use = match.route.operations.first { $0.method == request.method }?.importUse
        guard use == .createDevice || use == .createApp,
            let document = try? JSONParser.parse(answer), let id = document["id"]?.stringValue
        else { return }
        made.withLock { made in
            if use == .createDevice {
                made.devices.append(id)
            } else {
                made.apps.append(id)
                // An app created without a device gets one of its own.
                if let device = document["device"]?.stringValue, !made.devices.contains(device) {
                    made.devices.append(device)
                }
            }
        }
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
