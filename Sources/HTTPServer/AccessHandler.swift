import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The libmicrohttpd callbacks. They are non-capturing static functions on a nonisolated type, so
/// they run fine on libmicrohttpd's threads; they recover the daemon's `LoopContext` from the callback context
/// and the `RequestContext` from `req_cls`, both via `Unmanaged`.
enum AccessHandler {
    /// `MHD_AccessHandlerCallback`: called once with headers (`*req_cls == NULL`), then per body
    /// chunk, then with no data (answer then), and once more after every resume.
    static let callback: MHD_AccessHandlerCallback = {
        context, connection, url, method, version, uploadData, uploadSize, requestSlot in
        guard let context, let connection, let uploadSize, let requestSlot else { return .NO }
        let worker = Unmanaged<LoopContext>.fromOpaque(context).takeUnretainedValue()

        guard let existing = requestSlot.pointee else {
            let state = worker.connections.requestStarted(on: connection)
            return begin(
                worker: worker, connection: connection, url: url, method: method, state: state,
                isHTTP10: version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false, requestSlot: requestSlot)
        }
        let request = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()

        if uploadSize.pointee > 0 {
            receive(uploadData, count: uploadSize.pointee, into: request)
            uploadSize.pointee = 0
            return .YES
        }
        return answer(request)
    }

    /// `MHD_RequestCompletedCallback`: ends the request's life in libmicrohttpd, also for aborted connections.
    /// The context goes back to the daemon's pool unless a completion or the parked list still holds it.
    static let completed: MHD_RequestCompletedCallback = { context, connection, requestSlot, _ in
        if let context, let connection {
            Unmanaged<LoopContext>.fromOpaque(context).takeUnretainedValue().connections.requestEnded(on: connection)
        }
        guard let requestSlot, let existing = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        var request = Unmanaged<RequestContext>.fromOpaque(existing).takeRetainedValue()
        request.finish()
        request.worker.requests.recycle(&request)
    }

    /// First call: headers only. Never queues a response, except on purpose when the connection must close
    /// after the answer (queuing here makes libmicrohttpd 0.9.75 drop keep-alive): when the declared body is
    /// too large, or when the body's boundary is ambiguous (`RequestFraming`).
    private static func begin(
        worker: LoopContext,
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        state: OpenConnection?,
        isHTTP10: Bool,
        requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let server = worker.core
        var request = worker.requests.take(
            connection: connection,
            socket: state?.socket ?? lifecycled_mhd_connection_fd(connection),
            worker: worker,
            method: method.map(RequestFields.method) ?? "",
            path: url.map { String(cString: $0) } ?? "/"
        )
        request.client = state?.client
        let headerBytes = RequestFields.collect(from: connection, into: request)
        if let refusal = request.framing.refusal {
            worker.requests.recycle(&request)
            return ResponseSender.send(server.response(to: refusal), on: connection)
        }
        // Answered once the body is in, so the connection stays usable.
        var acceptedHost = state?.acceptedHost
        // A known field the request lacks costs no lookup.
        func value(_ field: KnownField) -> String? {
            request.known.index(of: field) == nil ? nil : RequestFields.value(of: field, on: connection)
        }
        request.refusal =
            state?.takeTargetRefusal()
            ?? RequestFields.refusal(headerBytes: headerBytes)
            ?? server.policy.refusal(
                method: request.method, known: request.known, value: value,
                hostIs: { RequestFields.value(of: .host, on: connection, is: $0) },
                headers: { RequestFields.all(on: connection) }, hostRequired: !isHTTP10, acceptedHost: &acceptedHost)
        state?.acceptedHost = acceptedHost
        request.crossOrigin = server.policy.allowedCrossOrigin(known: request.known, value: value)
        if let declared = request.framing.declaredBodyBytes {
            guard declared <= UInt64(server.maxBodyBytes) else {
                worker.requests.recycle(&request)
                return ResponseSender.send(
                    server.response(to: .bodyTooLarge(bytes: declared, limit: server.maxBodyBytes)), on: connection)
            }
            if declared > 0 { request.body.reserveCapacity(Int(declared)) }
        }
        requestSlot.pointee = Unmanaged.passRetained(request).toOpaque()
        return .YES
    }

    private static func receive(_ data: UnsafePointer<CChar>?, count: Int, into request: RequestContext) {
        request.receivedBodyBytes += count
        if request.bodyTooLarge { return }
        if request.receivedBodyBytes > request.core.maxBodyBytes {
            // Only reachable without Content-Length (chunked); the rest of the body is read and dropped.
            request.bodyTooLarge = true
            request.body = []
            return
        }
        guard let data else { return }
        request.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
    }

    /// The call with no data: either the body is complete, or the connection was just resumed.
    private static func answer(_ request: RequestContext) -> MHD_Result {
        if request.bodyTooLarge {
            return ResponseSender.send(
                request.core.response(to: .bodyTooLarge(bytes: nil, limit: request.core.maxBodyBytes)),
                on: request.connection)
        }
        if let refusal = request.refusal {
            request.refusal = nil
            request.responderCalled = true
            request.completeWithoutResponder()
            return send(request.core.response(to: refusal), for: request)
        }
        if request.responderCalled {
            guard let response = request.responseAfterResume() else { return .YES }
            return queue(response, for: request)
        }
        request.responderCalled = true
        let httpRequest = request.beginResponding()
        if let origin = request.crossOrigin, CrossOrigin.isPreflight(httpRequest) {
            // A preflight from an allowed origin is the edge's to answer; others reach the API (405).
            request.completeWithoutResponder()
            return ResponseSender.send(CrossOrigin.preflightResponse(origin: origin), on: request.connection)
        }
        request.core.responder.respond(to: httpRequest) { [request] response in
            request.complete(with: response)
        }
        guard let response = request.responseAfterResponding() else { return .YES }
        return queue(response, for: request)
    }

    private static func queue(_ response: HTTPResponse, for request: RequestContext) -> MHD_Result {
        guard let stream = response.stream else { return send(response, for: request) }
        let readable = request.crossOrigin.map { CrossOrigin.allowing($0, response) } ?? response
        return StreamResponse.queue(readable, stream: stream, for: request)
    }

    /// Sends a whole answer, readable by an allowed origin's page when the request came from one.
    private static func send(_ response: HTTPResponse, for request: RequestContext) -> MHD_Result {
        let readable = request.crossOrigin.map { CrossOrigin.allowing($0, response) } ?? response
        return ResponseSender.send(readable, on: request.connection)
    }
}
