import CMicroHTTPD

/// Hands an `HTTPResponse` to libmicrohttpd (`MHD_queue_response`), which sends it. Called from the access
/// handler and for streams.
enum ResponseSender {
    static func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        guard let mhdResponse = lending(response.body) else { return .NO }
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

    /// A libmicrohttpd response whose body is `body`'s own bytes, not a copy of them: the response holds the
    /// array's storage (one retain) until libmicrohttpd lets the response go and calls `releaseBody`. A body
    /// never changes once handed over: anyone else holding the array copies it before changing it, since the
    /// storage is no longer uniquely referenced. (A kept answer, read by many at once, is retained by each.)
    static func lending(_ body: [UInt8]) -> OpaquePointer? {
        let storage = BodyStorage.of(body)
        let held = Unmanaged.passRetained(storage).toOpaque()
        let created = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer_with_free_callback_cls(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), releaseBody, held)
        }
        if created == nil { Unmanaged<AnyObject>.fromOpaque(held).release() }
        return created
    }

    /// `MHD_ContentReaderFreeCallback`: libmicrohttpd is done with a body lent by `lending`.
    private static let releaseBody: MHD_ContentReaderFreeCallback = { held in
        guard let held else { return }
        Unmanaged<AnyObject>.fromOpaque(held).release()
    }

    /// Adds one header field; libmicrohttpd copies both strings. `withCString` lends a native string's own
    /// bytes (or a small string's, on the stack), where passing a `String` as a C string argument copies it
    /// into an array of its own.
    static func add(_ name: String, _ value: String, to response: OpaquePointer) {
        _ = name.withCString { name in value.withCString { value in MHD_add_response_header(response, name, value) } }
    }
}

/// The object that holds an array's elements. A Swift array on Linux is one reference to it (the standard
/// library's `_ContiguousArrayBuffer`), so retaining it keeps the elements where they are, with no box
/// allocated; `LentBodyTests` holds the layout to that.
enum BodyStorage {
    static func of(_ body: [UInt8]) -> AnyObject {
        precondition(MemoryLayout<[UInt8]>.size == MemoryLayout<AnyObject>.size, "an array is one reference")
        return unsafeBitCast(body, to: AnyObject.self)
    }
}
