import CMicroHTTPD

/// Copies headers and query arguments out of libmicrohttpd on the first handler call, while the
/// connection's strings are valid. libmicrohttpd has already percent-decoded the query arguments.
enum RequestFields {
    static func collect(from connection: OpaquePointer, into request: RequestContext) {
        // Two passes: Swift imports MHD_ValueKind as a closed enum, so the kinds cannot be OR-ed into one mask.
        let context = Unmanaged.passUnretained(request).toOpaque()
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, iterator, context)
        _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, iterator, context)
    }

    private static let iterator: MHD_KeyValueIteratorN = { context, kind, key, keySize, value, valueSize in
        guard let context else { return .NO }
        let request = Unmanaged<RequestContext>.fromOpaque(context).takeUnretainedValue()
        let name = string(key, count: keySize)
        let text = string(value, count: valueSize)
        if kind == .HEADER_KIND {
            if request.declaredBodyBytes == nil && asciiCaseInsensitiveEquals(name, "Content-Length") {
                request.declaredBodyBytes = UInt64(text)
            }
            request.headers.append((name: name, value: text))
        } else {
            request.query[name] = text
        }
        return .YES
    }

    private static func string(_ pointer: UnsafePointer<CChar>?, count: Int) -> String {
        guard let pointer, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
