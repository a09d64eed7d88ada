import CMicroHTTPD

/// The per-connection libmicrohttpd callbacks: the accept policy (per-client limit) and the connection
/// notifications (the connection table). Their context is the daemon's `Worker`.
enum ConnectionCallbacks {
    /// `MHD_AcceptPolicyCallback`: refuses a client already holding its share of connections.
    static let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
        guard let context, let address else { return .NO }
        let worker = Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue()
        guard let client = ClientAddress(address) else { return .YES }
        return worker.core.clients.admits(client) ? .YES : .NO
    }

    /// `MHD_NotifyConnectionCallback`: a connection opened or closed.
    static let notify: MHD_NotifyConnectionCallback = { context, connection, _, event in
        guard let context, let connection else { return }
        let worker = Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue()
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            let client = lifecycled_mhd_client_address(connection).flatMap(ClientAddress.init)
            if let client { worker.core.clients.opened(client) }
            worker.connections.opened(connection, socket: lifecycled_mhd_connection_fd(connection), client: client)
        case .CONNECTION_NOTIFY_CLOSED:
            if let client = worker.connections.closed(connection) { worker.core.clients.closed(client) }
        default:
            break
        }
    }
}
