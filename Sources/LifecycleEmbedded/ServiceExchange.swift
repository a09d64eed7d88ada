import HTTPServer
import LifecycleServer

/// One request handed to the service in process, and its answer (this file sees only the HTTP server's
/// request and response types, which share their names with swift-http-types').
struct ServiceExchange: Sendable {
    let service: LifecycleService

    func respond(
        method: String, target: String, headers: [(name: String, value: String)], body: [UInt8]
    ) async -> (status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        let request = HTTPRequest(method: method, target: target, headers: headers, body: body)
        let answer = await service.answer(to: request)
        return (answer.status, answer.sentHeaders, answer.body)
    }
}
