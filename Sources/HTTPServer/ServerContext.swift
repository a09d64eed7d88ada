import Logging

/// What every daemon's callbacks share: the responder, the limits, the parked requests, the
/// connection counts and the request policy. It lives as long as the daemons: `HTTPServer` holds it until
/// `MHD_stop_daemon` returned for each.
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let logger: Logger
    let parkedRequests = ParkedRequests()
    let openStreams = OpenStreams()
    let clients: ClientConnections
    let policy: RequestPolicy

    init(responder: any HTTPResponder, configuration: HTTPServerConfiguration, logger: Logger) {
        self.responder = responder
        self.maxBodyBytes = configuration.maxBodyBytes
        self.clients = ClientConnections(
            limit: max(1, configuration.connectionLimit),
            perClientLimit: max(1, configuration.perClientConnectionLimit))
        self.policy = RequestPolicy(
            listenHost: configuration.host, allowedHosts: configuration.allowedHosts,
            allowedOrigins: configuration.allowedOrigins)
        self.logger = logger
    }

    /// The responder's answer to `refusal`, closing the connection where the refusal requires it.
    func response(to refusal: HTTPRefusal) -> HTTPResponse {
        var response = responder.response(to: refusal)
        if refusal.closesConnection { response.headers.append(("Connection", "close")) }
        return response
    }

    /// Sent, as far as it goes, to a parked request whose client hung up: it only makes libmicrohttpd close
    /// the connection, and nobody reads it, so it has no body.
    static let clientGone = HTTPResponse(status: 499, headers: [("Connection", "close")])
}
