#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The header fields a request usually carries, and those the server and the API look up on every request:
/// each is told once, as the fields arrive (`KnownFields`), so that asking for one the request lacks costs no
/// lookup, and a list's field is found by index rather than by comparing names; a name sent in its usual
/// spelling becomes a constant string when the fields are listed (no copy, no validation).
public enum KnownField: Int, CaseIterable, Sendable {
    case host, accept, origin, cookie, referer, userAgent, connection, contentType, requestID, authorization
    case ifNoneMatch, cacheControl, lastEventID, contentLength, secFetchSite, secFetchMode, secFetchDest
    case acceptEncoding, acceptLanguage, idempotencyKey, transferEncoding

    /// The field's name in its usual spelling.
    public var name: String {
        switch self {
        case .host: "Host"
        case .accept: "Accept"
        case .origin: "Origin"
        case .cookie: "Cookie"
        case .referer: "Referer"
        case .userAgent: "User-Agent"
        case .connection: "Connection"
        case .contentType: "Content-Type"
        case .requestID: "X-Request-Id"
        case .authorization: "Authorization"
        case .ifNoneMatch: "If-None-Match"
        case .cacheControl: "Cache-Control"
        case .lastEventID: "Last-Event-ID"
        case .contentLength: "Content-Length"
        case .secFetchSite: "Sec-Fetch-Site"
        case .secFetchMode: "Sec-Fetch-Mode"
        case .secFetchDest: "Sec-Fetch-Dest"
        case .acceptEncoding: "Accept-Encoding"
        case .acceptLanguage: "Accept-Language"
        case .idempotencyKey: "Idempotency-Key"
        case .transferEncoding: "Transfer-Encoding"
        }
    }

    /// The known field called `name`, told regardless of ASCII case, and whether `name` is spelled as its `name`
    /// is; nil for any other name.
    static func of(_ name: UnsafeRawBufferPointer) -> (field: KnownField, usualSpelling: Bool)? {
        let table = table
        guard name.count < table.lengths, let bytes = name.baseAddress else { return nil }
        let (start, end) = table.bounds[name.count]
        var index = start
        while index < end {
            let field = table.order[Int(index)]
            if memcmp(bytes, table.spelled + Int(field) * NameTable.stride, name.count) == 0 {
                return (KnownField(rawValue: Int(field))!, true)
            }
            index += 1
        }
        index = start
        while index < end {
            let field = table.order[Int(index)]
            let lower = table.lowercased + Int(field) * NameTable.stride
            var offset = 0
            while offset < name.count, asciiLowercased(name[offset]) == lower[offset] { offset += 1 }
            if offset == name.count { return (KnownField(rawValue: Int(field))!, false) }
            index += 1
        }
        return nil
    }

    /// The field's name as `name` spells it, in memory never freed: what libmicrohttpd's lookup is given.
    var spelledName: (start: UnsafePointer<CChar>, count: Int) {
        let table = Self.table
        let start = UnsafeRawPointer(table.spelled + rawValue * NameTable.stride)
        return (start.assumingMemoryBound(to: CChar.self), Int(table.nameLengths[rawValue]))
    }

    /// The known field called `name`, told regardless of ASCII case; nil for any other name.
    public static func of(_ name: String) -> KnownField? {
        var name = name
        return name.withUTF8 { of(UnsafeRawBufferPointer($0))?.field }
    }

    /// The names as `of` reads them: made once from `name`, kept in memory that is never freed, so that telling a
    /// name takes no reference count.
    private struct NameTable: @unchecked Sendable {
        /// Bytes per name in `spelled` and `lowercased` (the longest name fits).
        static let stride = 32
        /// Name lengths covered: `bounds` has this many entries.
        let lengths: Int
        /// Per name length: the range of `order` holding the fields whose name has that length.
        let bounds: UnsafeMutablePointer<(UInt8, UInt8)>
        /// Raw values of the fields, ordered by the length of their name.
        let order: UnsafeMutablePointer<UInt8>
        /// Each field's name (at `rawValue * stride`), as `name` spells it and in lowercase.
        let spelled: UnsafeMutablePointer<UInt8>
        let lowercased: UnsafeMutablePointer<UInt8>
        /// Each field's name length (at `rawValue`).
        let nameLengths: UnsafeMutablePointer<UInt8>

        init() {
            let fields = KnownField.allCases.sorted {
                ($0.name.utf8.count, $0.rawValue) < ($1.name.utf8.count, $1.rawValue)
            }
            lengths = fields.last!.name.utf8.count + 1
            bounds = .allocate(capacity: lengths)
            for length in 0..<lengths {
                let start = fields.firstIndex { $0.name.utf8.count >= length } ?? fields.count
                let end = fields.firstIndex { $0.name.utf8.count > length } ?? fields.count
                (bounds + length).initialize(to: (UInt8(start), UInt8(end)))
            }
            order = .allocate(capacity: fields.count)
            order.initialize(from: fields.map { UInt8($0.rawValue) }, count: fields.count)
            spelled = .allocate(capacity: KnownField.allCases.count * Self.stride)
            spelled.initialize(repeating: 0, count: KnownField.allCases.count * Self.stride)
            lowercased = .allocate(capacity: KnownField.allCases.count * Self.stride)
            lowercased.initialize(repeating: 0, count: KnownField.allCases.count * Self.stride)
            nameLengths = .allocate(capacity: KnownField.allCases.count)
            for field in KnownField.allCases {
                precondition(field.name.utf8.count <= Self.stride)
                (nameLengths + field.rawValue).initialize(to: UInt8(field.name.utf8.count))
                for (offset, byte) in field.name.utf8.enumerated() {
                    spelled[field.rawValue * Self.stride + offset] = byte
                    lowercased[field.rawValue * Self.stride + offset] = asciiLowercased(byte)
                }
            }
        }
    }

    private static let table = NameTable()
}

/// Where each `KnownField` first appears among a request's header fields, noted as they arrive (or from a list
/// of fields): `HTTPRequest.header(_: KnownField)` answers nil from it for an absent field, and finds a list's
/// field by its index.
struct KnownFields: Sendable {
    /// Per known field (32 at most, which a test holds): 1 + the index of its first occurrence; 0 when absent.
    private var first = SIMD32<UInt16>()
    /// A bit per known field seen more than once.
    private var repeated: UInt32 = 0

    init() {}

    /// The fields of `headers`, told by their names.
    init(_ headers: [(name: String, value: String)]) {
        for (index, header) in headers.enumerated() {
            if let field = KnownField.of(header.name) { note(field, at: index) }
        }
    }

    /// Notes that the field at `index` is `field`.
    mutating func note(_ field: KnownField, at index: Int) {
        // Header fields take at least 4 bytes each within `RequestFields.maxHeaderBytes`: an index fits.
        guard index < Int(UInt16.max) else { return }
        if first[field.rawValue] == 0 {
            first[field.rawValue] = UInt16(index + 1)
        } else {
            repeated |= 1 << UInt32(field.rawValue)
        }
    }

    /// The index of the first field that is `field`, or nil.
    func index(of field: KnownField) -> Int? {
        let position = first[field.rawValue]
        return position == 0 ? nil : Int(position) - 1
    }

    /// Whether `field` appears more than once.
    func isRepeated(_ field: KnownField) -> Bool { repeated & (1 << UInt32(field.rawValue)) != 0 }
}
