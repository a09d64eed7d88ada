import LifecycleCore

extension JSONParser.Reader {
    /// Reads a number (RFC 8259 grammar) starting at `position`.
    ///
    /// Up to 15 significant digits with a decimal exponent within ±22 convert exactly with one
    /// multiplication or division (both operands are exact Doubles, so the result is correctly
    /// rounded); anything else goes through the standard library's correctly rounded `Double(_:)`.
    mutating func readNumber() throws(JSONParseError) -> Double {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }

        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var truncated = false

        guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
        let first = bytes[position]
        if first == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, Self.isDigit(bytes[position]) {
                throw JSONParseError(.leadingZero, at: position - 1)
            }
        } else if Self.isDigit(first) {
            while position < bytes.count, Self.isDigit(bytes[position]) {
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
                    significantDigits += 1
                } else {
                    exponent += 1
                    truncated = true
                }
                position += 1
            }
        } else {
            throw JSONParseError(.invalidNumber, at: position)
        }

        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
            guard Self.isDigit(bytes[position]) else { throw JSONParseError(.invalidNumber, at: position) }
            while position < bytes.count, Self.isDigit(bytes[position]) {
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
                    exponent -= 1
                    if mantissa != 0 { significantDigits += 1 }
                } else {
                    truncated = true
                }
                position += 1
            }
        }

        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
            var exponentNegative = false
            if bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
                guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
            }
            guard Self.isDigit(bytes[position]) else { throw JSONParseError(.invalidNumber, at: position) }
            var written = 0
            while position < bytes.count, Self.isDigit(bytes[position]) {
                if written < 100_000 { written = written * 10 + Int(bytes[position] &- UInt8(ascii: "0")) }
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }

        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if !truncated && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= Self.powerOfTen(-exponent)
            } else if exponent > 0 {
                value *= Self.powerOfTen(exponent)
            }
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONParseError(.invalidNumber, at: start) }
        guard value.isFinite else { throw JSONParseError(.numberOutOfRange, at: start) }
        return value
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// 10^exponent for 1...22, all exactly representable as Doubles.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }
}
