import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The per-connection libmicrohttpd callbacks: the accept policy (per-client limit) and the connection
/// notifications (the connection table). Their context is the daemon's `LoopContext`.
enum ConnectionCallbacks {
    /// `MHD_AcceptPolicyCallback`: refuses a connection past `--max-connections`, or from a client already
    /// holding its share of them.
    static let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
        guard let context, let address else { return .NO }
        let worker = Unmanaged<LoopContext>.fromOpaque(context).takeUnretainedValue()
        return worker.core.clients.admits(ClientAddress(address)) ? .YES : .NO
    }

    /// `MHD_OPTION_URI_LOG_CALLBACK`: the request target as sent, before libmicrohttpd decodes it: its refusal
    /// (`RequestTarget`) is kept for the access handler's first call. Returns nil, the initial `req_cls`.
    ///
    /// libmicrohttpd parses the query into its per-connection memory right after this call, and a query of
    /// about a thousand parameters exhausts that memory: the connection is then closed without an answer.
    /// When the target is refused anyway, its query is cut to nothing here, in
    /// libmicrohttpd's own buffer and within the string, so the refusal can be answered.
    static let requestLine:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) ->
            UnsafeMutableRawPointer? = { context, target, connection in
                guard let context, let target, let connection else { return nil }
                let worker = Unmanaged<LoopContext>.fromOpaque(context).takeUnretainedValue()
                let refusal = RequestTarget.refusal(
                    target: UnsafeRawBufferPointer(start: target, count: strlen(target)))
                worker.connections.checkedTarget(refusal, on: connection)
                if refusal != nil, let mark = strchr(target, Int32(UInt8(ascii: "?"))) {
                    UnsafeMutablePointer(mutating: mark + 1).pointee = 0
                }
                return nil
            }

    /// `MHD_NotifyConnectionCallback`: a connection opened or closed.
    static let notify: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
        guard let context, let connection else { return }
        let worker = Unmanaged<LoopContext>.fromOpaque(context).takeUnretainedValue()
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            let client = lifecycled_mhd_client_address(connection).flatMap(ClientAddress.init)
            worker.core.clients.opened(client)
            worker.connections.opened(
                connection, socket: lifecycled_mhd_connection_fd(connection), client: client,
                socketContext: socketContext)
        case .CONNECTION_NOTIFY_CLOSED:
            // The state goes with the table's entry: nothing may reach it through the socket context after this.
            socketContext?.pointee = nil
            if let state = worker.connections.closed(connection) { worker.core.clients.closed(state.client) }
        default:
            break
        }
    }
}
