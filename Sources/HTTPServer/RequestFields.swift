import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a request's header fields and query arguments out of libmicrohttpd. On the first handler call the
/// header fields are looked at once, in place (`collect`): which known fields there are, what they say of the
/// body's framing, how many bytes they take; their values stay in libmicrohttpd, which keeps them until the
/// request is answered, and are read when asked (`value(of:on:)`). The query arguments, when there are any, are
/// copied (libmicrohttpd has already percent-decoded them).
enum RequestFields {
    /// Most bytes the header fields may take together (each name, value and the 4 bytes of `: ` and CRLF).
    /// libmicrohttpd closes or answers by itself (with its own HTML) only past its per-connection memory
    /// (`LIFECYCLED_CONNECTION_MEMORY`, 40 KiB, in `shim.h`), so below that this refusal comes first.
    static let maxHeaderBytes = 16 * 1024

    /// The refusal for header fields taking `bytes` (over `maxHeaderBytes`), or nil.
    static func refusal(headerBytes bytes: Int) -> HTTPRefusal? {
        bytes > maxHeaderBytes ? .headerFieldsTooLarge(bytes: bytes, limit: maxHeaderBytes) : nil
    }

    /// What the header iterator notes, handed to it by pointer.
    private struct Collected {
        var framing = RequestFraming()
        var known = KnownFields()
        var count = 0
        var bytes = 0
        /// The field before the one being read: its name and where its value ends, to tell, once the next name
        /// is known, whether a NUL cut the value short (`endsWhereItSeems`).
        var previous: (name: UnsafeRawBufferPointer, end: UnsafePointer<CChar>)?
    }

    /// Notes the header fields' known names and framing into `request`, which has none yet, and copies the query
    /// arguments (into its dictionary's storage, kept from a request before). Returns the bytes the header fields
    /// take (see `maxHeaderBytes`).
    static func collect(from connection: OpaquePointer, into request: RequestContext) -> Int {
        var collected = Collected()
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, headerIterator, pointer)
        }
        // Most requests have no query: then its dictionary is not touched.
        let arguments = Int(MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, nil, nil))
        if arguments > 0 {
            var query: [String: String] = [:]
            swap(&query, &request.query)
            query.reserveCapacity(arguments)
            withUnsafeMutablePointer(to: &query) { pointer in
                _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, argumentIterator, pointer)
            }
            swap(&query, &request.query)
        }
        if let previous = collected.previous, !endsWhereItSeems(previous.end, next: nil) {
            collected.framing.noteMalformedValue(of: previous.name)
        }
        request.framing = collected.framing
        request.known = collected.known
        return collected.bytes
    }

    private static let headerIterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context else { return .NO }
        let collected = context.assumingMemoryBound(to: Collected.self)
        let rawName = UnsafeRawBufferPointer(start: key, count: key == nil ? 0 : keySize)
        let known = KnownField.of(rawName)?.field
        collected.pointee.framing.note(name: rawName, field: known) { string(value, count: valueSize) }
        if let known { collected.pointee.known.note(known, at: collected.pointee.count) }
        if let previous = collected.pointee.previous, !endsWhereItSeems(previous.end, next: key) {
            collected.pointee.framing.noteMalformedValue(of: previous.name)
        }
        if let value {
            if memchr(value, 0x0D, valueSize) != nil || memchr(value, 0, valueSize) != nil {
                collected.pointee.framing.noteMalformedValue(of: rawName)
            }
            collected.pointee.previous = (rawName, value + valueSize)
        } else {
            collected.pointee.previous = nil
        }
        collected.pointee.count += 1
        collected.pointee.bytes += rawName.count + (value == nil ? 0 : valueSize) + 4
        return .YES
    }

    /// Whether a field value that seems to end at `end` (its terminating NUL, in libmicrohttpd's buffer) does.
    /// libmicrohttpd 0.9.75 ends each line in place with NULs (CR and LF both, or a bare LF) and measures the value
    /// up to the first NUL, so `a<NUL>b` reads as `a`: then what follows the NUL is neither another NUL nor the
    /// next field's name (`next`; nil after the last field, which the empty line's NULs follow).
    private static func endsWhereItSeems(_ end: UnsafePointer<CChar>, next: UnsafePointer<CChar>?) -> Bool {
        end[1] == 0 || end + 1 == next
    }

    /// Repeated names: the last value wins. A name without `=` has the value "".
    private static let argumentIterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context else { return .NO }
        let query = context.assumingMemoryBound(to: [String: String].self)
        query.pointee[string(key, count: keySize)] = string(value, count: valueSize)
        return .YES
    }

    /// The value of the first header field that is `field`, or nil.
    static func value(of field: KnownField, on connection: OpaquePointer) -> String? {
        let name = field.spelledName
        return bytes(named: name.start, count: name.count, on: connection).map { string($0.start, count: $0.count) }
    }

    /// Whether the first header field that is `field` has exactly the bytes of `expected` (false when absent).
    static func value(of field: KnownField, on connection: OpaquePointer, is expected: String) -> Bool {
        let name = field.spelledName
        guard let value = bytes(named: name.start, count: name.count, on: connection) else { return false }
        var expected = expected
        return expected.withUTF8 { bytes in
            guard bytes.count == value.count else { return false }
            return value.count == 0 || memcmp(bytes.baseAddress!, value.start!, value.count) == 0
        }
    }

    /// The value of the first header field called `name` (ASCII case folded), or nil.
    static func value(named name: String, on connection: OpaquePointer) -> String? {
        var name = name
        let value = name.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { bytes(named: $0.baseAddress, count: $0.count, on: connection) }
        }
        return value.map { string($0.start, count: $0.count) }
    }

    /// Where libmicrohttpd holds the value of the first header field called `name` (ASCII case folded): valid
    /// until the request is answered. Nil when absent.
    private static func bytes(
        named name: UnsafePointer<CChar>?, count: Int, on connection: OpaquePointer
    ) -> (start: UnsafePointer<CChar>?, count: Int)? {
        guard let name else { return nil }
        var value: UnsafePointer<CChar>?
        var size = 0
        guard MHD_lookup_connection_value_n(connection, .HEADER_KIND, name, count, &value, &size) == .YES else {
            return nil
        }
        return (value, size)
    }

    /// Every header field, in the order they arrived, names as sent.
    static func all(on connection: OpaquePointer) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, listIterator, pointer)
        }
        return fields
    }

    private static let listIterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context else { return .NO }
        let fields = context.assumingMemoryBound(to: [(name: String, value: String)].self)
        let rawName = UnsafeRawBufferPointer(start: key, count: key == nil ? 0 : keySize)
        let field = (name: name(rawName, known: KnownField.of(rawName)), value: string(value, count: valueSize))
        fields.pointee.append(field)
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
