import CMicroHTTPD

/// Hands an `HTTPResponse` to libmicrohttpd (`MHD_queue_response`), which sends it. Called from the access
/// handler and for streams.
enum ResponseSender {
    static func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        // MUST_COPY: the Swift array's storage is not ours to hand over, and the copy is small.
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        for header in response.headers {
            // libmicrohttpd refuses a few headers it owns (Content-Length); the response still goes out.
            add(header.name, header.value, to: mhdResponse)
        }
        if let requestID = response.requestID {
            add(HTTPResponse.requestIDField, requestID, to: mhdResponse)
        }
        let status = (100...599).contains(response.status) ? response.status : 500
        return MHD_queue_response(connection, UInt32(status), mhdResponse)
    }

    /// Adds one header field; libmicrohttpd copies both strings. `withCString` lends a native string's own
    /// bytes (or a small string's, on the stack), where passing a `String` as a C string argument copies it
    /// into an array of its own.
    static func add(_ name: String, _ value: String, to response: OpaquePointer) {
        _ = name.withCString { name in value.withCString { value in MHD_add_response_header(response, name, value) } }
    }
}
