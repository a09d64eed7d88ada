import Foundation
import HTTPServer
import HTTPTypes
import OpenAPIRuntime

/// The generated client's requests handed to the service in this process through `InProcessExchange`: no
/// socket, no HTTP parsing. A parked long poll parks here too (nothing waits on a thread), and answers when the
/// service does. (swift-http-types and the HTTP server both name a type `HTTPRequest` and `HTTPResponse`: the
/// client's are written `HTTPTypes.` here.)
struct InProcessTransport: ClientTransport {
    let exchange: InProcessExchange
    /// The largest request body taken, as the daemon's own limit.
    let maxBodyBytes: Int

    func send(_ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPTypes.HTTPResponse, HTTPBody?)
    {
        let bytes: [UInt8] = if let body { try await [UInt8](collecting: body, upTo: maxBodyBytes) } else { [] }
        let answer = try await exchange.exchange(
            method: request.method.rawValue, target: request.path ?? "/",
            headers: request.headerFields.map { (name: $0.name.rawName, value: $0.value) }, body: bytes)
        var response = HTTPTypes.HTTPResponse(status: .init(code: answer.status))
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { response.headerFields.append(HTTPField(name: field, value: value)) }
        }
        return (response, answer.body.isEmpty ? nil : HTTPBody(answer.body))
    }
}
