import Foundation
import HTTPTypes
import LifecycleOpenAPI
import OpenAPIRuntime

/// Gives every request the namespace's token, and turns every problem document the daemon answers into a
/// thrown `LifecycledProblem` before an operation reads it.
struct ProblemMiddleware: ClientMiddleware {
    let token: String?
    /// A problem document is small; a larger body is not one.
    static let maxProblemBytes = 1 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token { request.headerFields[.authorization] = "Bearer \(token)" }
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400,
            response.headerFields[.contentType]?.hasPrefix("application/problem+json") == true,
            let responseBody
        else { return (response, responseBody) }
        let bytes = try await Data(collecting: responseBody, upTo: Self.maxProblemBytes)
        let document = try JSONDecoder().decode(Components.Schemas.Problem.self, from: bytes)
        throw LifecycledProblem(status: response.status.code, document: document)
    }
}
