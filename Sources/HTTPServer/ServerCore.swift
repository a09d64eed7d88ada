import Logging

/// What every daemon's callbacks share: the responder, the limits, the parked requests and the
/// per-client connection counts. It lives as long as the daemons: `HTTPServer` holds it until
/// `MHD_stop_daemon` returned for each.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let logger: Logger
    let parkedRequests = ParkedRequests()
    let clients: ClientConnections

    init(responder: any HTTPResponder, maxBodyBytes: Int, perClientConnectionLimit: Int, logger: Logger) {
        self.responder = responder
        self.maxBodyBytes = maxBodyBytes
        self.clients = ClientConnections(limit: perClientConnectionLimit)
        self.logger = logger
    }
}
