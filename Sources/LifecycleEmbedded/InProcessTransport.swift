import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The generated client's requests handed to the service in this process: no socket, no HTTP parsing.
/// A parked long poll parks here too (nothing waits on a thread), and answers when the service does.
struct InProcessTransport: ClientTransport {
    let service: ServiceExchange
    /// The largest request body taken, as the daemon's own limit.
    let maxBodyBytes: Int

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        let bytes: [UInt8] = if let body { try await [UInt8](collecting: body, upTo: maxBodyBytes) } else { [] }
        let answer = await service.respond(
            method: request.method.rawValue, target: request.path ?? "/",
            headers: request.headerFields.map { (name: $0.name.rawName, value: $0.value) }, body: bytes)
        var response = HTTPResponse(status: .init(code: answer.status))
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { response.headerFields.append(HTTPField(name: field, value: value)) }
        }
        return (response, answer.body.isEmpty ? nil : HTTPBody(answer.body))
    }
}
