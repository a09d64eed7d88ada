import CMicroHTTPD

/// Copies headers and query arguments out of libmicrohttpd on the first handler call, while the
/// connection's strings are valid. libmicrohttpd has already percent-decoded the query arguments.
enum RequestFields {
    /// Most bytes the header fields may take together (each name, value and the 4 bytes of `: ` and CRLF).
    /// libmicrohttpd closes or answers by itself (with its own HTML) only past its per-connection memory
    /// (`LIFECYCLED_CONNECTION_MEMORY`, 40 KiB, in `shim.h`), so below that this refusal comes first.
    static let maxHeaderBytes = 16 * 1024

    /// The refusal for header fields over `maxHeaderBytes`, or nil.
    static func refusal(headers: [(name: String, value: String)]) -> HTTPRefusal? {
        let bytes = headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        return bytes > maxHeaderBytes ? .headerFieldsTooLarge(bytes: bytes, limit: maxHeaderBytes) : nil
    }

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
            let rawName = UnsafeRawBufferPointer(start: key, count: key == nil ? 0 : keySize)
            request.framing.note(name: rawName, value: text)
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
