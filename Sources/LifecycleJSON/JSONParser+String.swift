import LifecycleCore

extension JSONParser.Reader {
    /// Reads a string whose opening quote is at `position`. Strings without escapes are decoded
    /// straight from the input; the rest are unescaped through `scratch`.
    mutating func readString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if byte < 0x20 { throw JSONParseError(.controlCharacterInString(byte), at: position) }
            if byte < 0x80 { position += 1 } else { try skipMultibyteScalar() }
        }
        throw JSONParseError(.unexpectedEnd, at: position, expected: .closingQuote)
    }

    private mutating func readEscapedString(from start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try readEscape()
            } else if byte < 0x20 {
                throw JSONParseError(.controlCharacterInString(byte), at: position)
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                let scalarStart = position
                try skipMultibyteScalar()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[scalarStart..<position]))
            }
        }
        throw JSONParseError(.unexpectedEnd, at: position, expected: .closingQuote)
    }

    /// Reads the escape whose backslash is at `position` and appends its UTF-8 to `scratch`.
    private mutating func readEscape() throws(JSONParseError) {
        let escapeStart = position
        position += 1
        guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            var scalar = UInt32(unit)
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw JSONParseError(.unpairedSurrogate, at: escapeStart)
            }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw JSONParseError(.unpairedSurrogate, at: escapeStart) }
                position += 2
                let low = try readHex4()
                guard low >= 0xDC00 && low <= 0xDFFF else { throw JSONParseError(.unpairedSurrogate, at: escapeStart) }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            throw JSONParseError(.invalidEscape(byte), at: escapeStart)
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(.invalidUnicodeEscape, at: position)
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(0xC0 | UInt8(scalar >> 6))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        case ..<0x10000:
            scratch.append(0xE0 | UInt8(scalar >> 12))
            scratch.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(scalar >> 18))
            scratch.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            scratch.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// Checks the well-formed UTF-8 sequence (Unicode Table 3-7) whose lead byte (≥ 0x80) is at
    /// `position` and moves past it. Rejects overlongs, surrogates and scalars above U+10FFFF.
    private mutating func skipMultibyteScalar() throws(JSONParseError) {
        let lead = bytes[position]
        let continuationCount: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: continuationCount = 1
        case 0xE0: continuationCount = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
        case 0xED: continuationCount = 2; high = 0x9F
        case 0xF0: continuationCount = 3; low = 0x90
        case 0xF1...0xF3: continuationCount = 3
        case 0xF4: continuationCount = 3; high = 0x8F
        default: throw JSONParseError(.invalidUTF8, at: position)
        }
        guard position + continuationCount < bytes.count else { throw JSONParseError(.invalidUTF8, at: position) }
        let second = bytes[position + 1]
        guard second >= low && second <= high else { throw JSONParseError(.invalidUTF8, at: position) }
        var index = 2
        while index <= continuationCount {
            guard bytes[position + index] & 0xC0 == 0x80 else { throw JSONParseError(.invalidUTF8, at: position) }
            index += 1
        }
        position += continuationCount + 1
    }
}
