/// A fast 64-bit content hash for ETags: eight bytes a step (multiply, rotate, xor), then a final mix.
/// Not cryptographic; equal bytes give equal tags across processes and restarts.
package enum ContentHash {
    package static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { buffer -> UInt64 in
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(buffer.count)
            var offset = 0
            while offset + 8 <= buffer.count {
                let word = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                hash = (hash ^ (word &* 0xBF58_476D_1CE4_E5B9)).rotatedLeft(by: 27) &* 0x94D0_49BB_1331_11EB
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < buffer.count {
                tail = (tail << 8) | UInt64(buffer[offset])
                offset += 1
            }
            hash = (hash ^ (tail &* 0xBF58_476D_1CE4_E5B9)).rotatedLeft(by: 27) &* 0x94D0_49BB_1331_11EB
            hash ^= hash >> 31
            hash = hash &* 0xD6E8_FEB8_6659_FD93
            return hash ^ (hash >> 32)
        }
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}

/// FNV-1a, 64 bits: fingerprints of request bodies for idempotency keys. Not cryptographic.
package enum FNV1a {
    package static func hash(_ bytes: [UInt8], seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
