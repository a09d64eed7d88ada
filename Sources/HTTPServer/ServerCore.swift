import Logging

/// What the libmicrohttpd callbacks reach through their context pointer: the responder, the limits and
/// the parked requests. It lives as long as the daemon: `HTTPServer` holds it until `MHD_stop_daemon` returns.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let logger: Logger
    let parkedRequests = ParkedRequests()

    init(responder: any HTTPResponder, maxBodyBytes: Int, logger: Logger) {
        self.responder = responder
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
    }
}
