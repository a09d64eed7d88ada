#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import HTTPServer
import Logging

/// A responder made of a closure, so each test states its behaviour inline. A refusal answers 400 with the
/// refusal's description as text (`refused(_:)`): these tests check what the server refused and why; the
/// daemon's rendering of it is tested with the daemon's responder.
struct ClosureResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void

    func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        handler(request, completion)
    }

    func response(to refusal: HTTPRefusal) -> HTTPResponse {
        textResponse(refused(refusal), status: 400)
    }
}

/// The body `ClosureResponder` answers a refusal with.
func refused(_ refusal: HTTPRefusal) -> String { "refused: \(refusal)" }

func textResponse(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "text/plain")], body: Array(text.utf8))
}

var testLogger: Logger {
    var logger = Logger(label: "HTTPServerTests")
    logger.logLevel = .warning
    return logger
}

/// Starts a server on a free port, runs `body`, and always stops the server.
func withServer<T>(
    maxBodyBytes: Int = 1 << 20,
    configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    _ handler: @escaping @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void,
    _ body: (HTTPServer) throws -> T
) throws -> T {
    var configuration = HTTPServerConfiguration()
    configuration.port = 0
    configuration.maxBodyBytes = maxBodyBytes
    configure(&configuration)
    let server = HTTPServer(
        configuration: configuration, responder: ClosureResponder(handler: handler), logger: testLogger)
    try server.start()
    defer { server.stop() }
    return try body(server)
}
