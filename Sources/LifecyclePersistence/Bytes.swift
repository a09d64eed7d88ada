/// Little-endian integers, doubles, varints and length-prefixed blobs, appended.
package struct ByteWriter {
    package var bytes: [UInt8] = []

    package init(reservingCapacity capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func byte(_ value: UInt8) { bytes.append(value) }
    package mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    package mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    package mutating func double(_ value: Double) { u64(value.bitPattern) }

    /// 7 bits a byte, low bits first.
    package mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer, zigzagged so small magnitudes take one byte.
    package mutating func integer(_ value: Int) {
        let wide = Int64(value)
        varint(UInt64(bitPattern: (wide << 1) ^ (wide >> 63)))
    }

    /// UTF-8 after its length as a varint.
    package mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func blob(_ data: [UInt8]) {
        u32(UInt32(data.count))
        bytes += data
    }

    package mutating func blob(_ data: UnsafeRawBufferPointer) {
        u32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }
}

/// Reads what `ByteWriter` wrote, from an array or from memory lent for the read (a retained entry's
/// bytes); throws on anything cut short or out of range.
package struct ByteReader<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
    private let bytes: Bytes
    private var offset: Int

    package init(_ bytes: Bytes) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    package var isAtEnd: Bool { offset == bytes.endIndex }

    package mutating func take(_ count: Int) throws -> Bytes.SubSequence {
        guard count >= 0, count <= bytes.endIndex - offset else { throw CorruptRecord() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    package mutating func byte() throws -> UInt8 {
        guard offset < bytes.endIndex else { throw CorruptRecord() }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func u32() throws -> UInt32 { UInt32(try little(4)) }

    package mutating func u64() throws -> UInt64 { try little(8) }

    /// `count` bytes, little-endian.
    private mutating func little(_ count: Int) throws -> UInt64 {
        guard count <= bytes.endIndex - offset else { throw CorruptRecord() }
        var value: UInt64 = 0
        for index in (offset..<offset + count).reversed() { value = value << 8 | UInt64(bytes[index]) }
        offset += count
        return value
    }

    package mutating func double() throws -> Double { Double(bitPattern: try u64()) }

    package mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw CorruptRecord() }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
    }

    package mutating func integer() throws -> Int {
        let raw = try varint()
        let value = Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        guard let integer = Int(exactly: value) else { throw CorruptRecord() }
        return integer
    }

    package mutating func string() throws -> String { String(decoding: try utf8(), as: UTF8.self) }

    /// The bytes of a string `string` would read.
    package mutating func utf8() throws -> Bytes.SubSequence {
        let count = try varint()
        guard count <= UInt64(bytes.endIndex - offset) else { throw CorruptRecord() }
        return try take(Int(count))
    }

    package mutating func blob() throws -> Bytes.SubSequence { try take(Int(try u32())) }

    /// Everything not read yet.
    package mutating func rest() -> Bytes.SubSequence {
        defer { offset = bytes.endIndex }
        return bytes[offset...]
    }
}
