public import LifecycleCore

/// A strict RFC 8259 parser from UTF-8 bytes to `JSONValue`, standard library only.
///
/// Rejects trailing commas, comments, `NaN`/`Infinity`, leading zeros, raw control characters
/// in strings, malformed `\u` escapes and unpaired surrogates, ill-formed UTF-8, numbers beyond
/// Double's range, nesting deeper than `maxDepth`, and anything but whitespace after the value.
/// Any value may stand at the top level. Duplicate object keys: the last one wins, unless the caller asks
/// for them to be refused (`rejectingDuplicateKeys`, for files people write).
public enum JSONParser {
    /// How deeply arrays and objects may nest; deeper input is rejected before it can exhaust the stack.
    public static let defaultMaxDepth = 64

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try parse(buffer, maxDepth: maxDepth)
        }
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError)
        -> JSONValue
    {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try parse(buffer, maxDepth: maxDepth)
        }
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var text = text
        // `String.withUTF8` rethrows untyped errors, so the typed error travels out as a Result.
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError)
        -> JSONValue
    {
        try parse(bytes.assumingMemoryBound(to: UInt8.self), maxDepth: maxDepth)
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
        throws(JSONParseError) -> JSONValue
    {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        return try reader.readDocument()
    }

    /// As `parse`, refusing an object that names a key twice (`duplicateKey`), where keeping the last would
    /// hide a mistake.
    public static func parse(rejectingDuplicateKeys bytes: [UInt8], maxDepth: Int = defaultMaxDepth)
        throws(JSONParseError) -> JSONValue
    {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var reader = Reader(bytes: buffer, maxDepth: maxDepth)
            reader.rejectsDuplicateKeys = true
            return try reader.readDocument()
        }
    }
}

extension JSONParser {
    /// The parser's cursor over one input buffer. Strings and numbers are in `JSONParser+String.swift`
    /// and `JSONParser+Number.swift`.
    struct Reader {
        package let bytes: UnsafeBufferPointer<UInt8>
        package let maxDepth: Int
        package var position = 0
        package var depth = 0
        /// Elements of the arrays being read, innermost last; each array takes its slice off the top when it closes.
        var elementStack: [JSONValue] = []
        /// Members of the objects being read, likewise; each object is built at its final size in one allocation.
        var memberStack: [(key: String, value: JSONValue)] = []
        /// Unescaped bytes of the string being read, for strings with escapes.
        var scratch: [UInt8] = []
        /// Whether an object naming a key twice is refused rather than keeping the last.
        var rejectsDuplicateKeys = false

        package init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        mutating func readDocument() throws(JSONParseError) -> JSONValue {
            let value = try readValue()
            skipWhitespace()
            if position < bytes.count {
                throw JSONParseError(.trailingCharacters(bytes[position]), at: position, expected: .end)
            }
            return value
        }

        @inline(__always)
        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        /// The next byte after whitespace, not consumed; throws at the end of the input, where `expected` was.
        @inline(__always)
        mutating func peekSignificant(expecting expected: JSONParseError.Expectation) throws(JSONParseError) -> UInt8 {
            skipWhitespace()
            guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position, expected: expected) }
            return bytes[position]
        }

        mutating func readValue() throws(JSONParseError) -> JSONValue {
            switch try peekSignificant(expecting: .value) {
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "{"): return try readObject()
            case UInt8(ascii: "["): return try readArray()
            case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try readLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
            case let byte: throw JSONParseError(.unexpectedCharacter(byte), at: position, expected: .value)
            }
        }

        private mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            for byte in expected {
                guard position < bytes.count else {
                    throw JSONParseError(.unexpectedEnd, at: position, expected: .literal(literal.description))
                }
                guard bytes[position] == byte else {
                    throw JSONParseError(
                        .unexpectedCharacter(bytes[position]), at: position, expected: .literal(literal.description))
                }
                position += 1
            }
        }

        private mutating func enterContainer() throws(JSONParseError) {
            depth += 1
            if depth > maxDepth { throw JSONParseError(.tooDeep(limit: maxDepth), at: position) }
            position += 1
        }

        private mutating func readArray() throws(JSONParseError) -> JSONValue {
            try enterContainer()
            defer { depth -= 1 }
            if try peekSignificant(expecting: .value) == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            if elementStack.capacity == 0 { elementStack.reserveCapacity(16) }
            let base = elementStack.count
            while true {
                elementStack.append(try readValue())
                let byte = try peekSignificant(expecting: .commaOrBracket)
                position += 1
                if byte == UInt8(ascii: ",") { continue }
                if byte == UInt8(ascii: "]") { break }
                throw JSONParseError(.unexpectedCharacter(byte), at: position - 1, expected: .commaOrBracket)
            }
            let elements = Array(elementStack[base...])
            elementStack.removeSubrange(base...)
            return .array(elements)
        }

        private mutating func readObject() throws(JSONParseError) -> JSONValue {
            try enterContainer()
            defer { depth -= 1 }
            if try peekSignificant(expecting: .keyOrEnd) == UInt8(ascii: "}") {
                position += 1
                return .object([:])
            }
            if memberStack.capacity == 0 { memberStack.reserveCapacity(16) }
            let base = memberStack.count
            while true {
                // The first key, after which '}' may come instead (`{}` returned above), or one after a comma.
                let key: JSONParseError.Expectation = memberStack.count == base ? .keyOrEnd : .key
                let quote = try peekSignificant(expecting: key)
                guard quote == UInt8(ascii: "\"") else {
                    throw JSONParseError(.unexpectedCharacter(quote), at: position, expected: key)
                }
                let name = try readString()
                let colon = try peekSignificant(expecting: .colon)
                guard colon == UInt8(ascii: ":") else {
                    throw JSONParseError(.unexpectedCharacter(colon), at: position, expected: .colon)
                }
                position += 1
                memberStack.append((name, try readValue()))
                let byte = try peekSignificant(expecting: .commaOrBrace)
                position += 1
                if byte == UInt8(ascii: ",") { continue }
                if byte == UInt8(ascii: "}") { break }
                throw JSONParseError(.unexpectedCharacter(byte), at: position - 1, expected: .commaOrBrace)
            }
            var members = [String: JSONValue](minimumCapacity: memberStack.count - base)
            for index in base..<memberStack.count {
                let key = memberStack[index].key
                if rejectsDuplicateKeys, members[key] != nil {
                    throw JSONParseError(.duplicateKey(key), at: position - 1)
                }
                members[key] = memberStack[index].value  // last duplicate wins
            }
            memberStack.removeSubrange(base...)
            return .object(members)
        }
    }
}
