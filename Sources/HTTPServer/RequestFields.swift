import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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

    /// Header fields a request's storage is first made for; more grow it.
    static let typicalHeaderCount = 16

    /// What the iterators fill, handed to them by pointer: the fields are moved out of the context while
    /// they are copied, so each field costs no access to the context (and no reference count).
    private struct Collected {
        var headers: [(name: String, value: String)]
        var query: [String: String]
        var framing: RequestFraming
        var known: KnownFields
    }

    /// Copies the header fields (in arrival order) and the query arguments into `request`, which has none yet;
    /// their storage (a reused context's, or reserved here) grows only for more fields than it had room for.
    static func collect(from connection: OpaquePointer, into request: RequestContext) {
        var collected = Collected(headers: [], query: [:], framing: RequestFraming(), known: KnownFields())
        swap(&collected.headers, &request.headers)
        collected.headers.reserveCapacity(typicalHeaderCount)
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, headerIterator, pointer)
        }
        // Most requests have no query: then its dictionary is not touched.
        let arguments = Int(MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, nil, nil))
        if arguments > 0 {
            swap(&collected.query, &request.query)
            collected.query.reserveCapacity(arguments)
            withUnsafeMutablePointer(to: &collected) { pointer in
                _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, argumentIterator, pointer)
            }
            swap(&collected.query, &request.query)
        }
        swap(&collected.headers, &request.headers)
        request.framing = collected.framing
        request.known = collected.known
    }

    private static let headerIterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context else { return .NO }
        let collected = context.assumingMemoryBound(to: Collected.self)
        let text = string(value, count: valueSize)
        let rawName = UnsafeRawBufferPointer(start: key, count: key == nil ? 0 : keySize)
        let known = KnownField.of(rawName)
        collected.pointee.framing.note(name: rawName, field: known?.field, value: text)
        if let known { collected.pointee.known.note(known.field, at: collected.pointee.headers.count) }
        collected.pointee.headers.append((name: name(rawName, known: known), value: text))
        return .YES
    }

    /// Repeated names: the last value wins. A name without `=` has the value "".
    private static let argumentIterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context else { return .NO }
        let collected = context.assumingMemoryBound(to: Collected.self)
        collected.pointee.query[string(key, count: keySize)] = string(value, count: valueSize)
        return .YES
    }

    private static func string(_ pointer: UnsafePointer<CChar>?, count: Int) -> String {
        guard let pointer, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// A header field's name as sent; a known one (`KnownField`) in its usual spelling as a constant string: it
    /// costs no validation, and no allocation past 15 bytes.
    static func name(_ name: UnsafeRawBufferPointer, known: (field: KnownField, usualSpelling: Bool)?) -> String {
        if let known, known.usualSpelling { return known.field.name }
        return name.isEmpty ? "" : String(decoding: name, as: UTF8.self)
    }

    /// The request method as sent; the usual ones as constant strings, which cost no copy nor validation.
    static func method(_ pointer: UnsafePointer<CChar>) -> String {
        switch pointer[0] {
        case 0x47 where isMethod(pointer, "GET"): "GET"
        case 0x50 where isMethod(pointer, "POST"): "POST"
        case 0x50 where isMethod(pointer, "PUT"): "PUT"
        case 0x44 where isMethod(pointer, "DELETE"): "DELETE"
        case 0x48 where isMethod(pointer, "HEAD"): "HEAD"
        case 0x4F where isMethod(pointer, "OPTIONS"): "OPTIONS"
        default: String(cString: pointer)
        }
    }

    /// Whether the C string at `pointer` is exactly `method`.
    private static func isMethod(_ pointer: UnsafePointer<CChar>, _ method: StaticString) -> Bool {
        let count = method.utf8CodeUnitCount
        let bytes = method.utf8Start
        for index in 0..<count where UInt8(bitPattern: pointer[index]) != bytes[index] { return false }
        return pointer[count] == 0
    }
}
