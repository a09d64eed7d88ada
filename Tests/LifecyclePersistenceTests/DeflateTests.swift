import Testing

@testable import LifecyclePersistence

/// A snapshot's compression: its header, then the body compressed, in one buffer that zlib writes into
/// uninitialized; what inflates back is the body, byte for byte.
@Suite struct DeflateTests {
    @Test("the prefix is kept and the rest inflates to the bytes", arguments: [0, 1, 100, 70_000, 1_500_000])
    func roundTrip(count: Int) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(count + 1)
        // Half random bytes, half runs: what compresses and what does not.
        let bytes = (0..<count).map { index -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return index % 1_000 < 500 ? UInt8(truncatingIfNeeded: state >> 33) : UInt8(index / 1_000 % 7)
        }
        let prefix: [UInt8] = [0x4C, 0x43, 0x53, 0x4E, 4, 9, 9]
        let out = try Deflate.compress(bytes, after: prefix)
        #expect(Array(out.prefix(prefix.count)) == prefix)
        #expect(try Deflate.decompress(out[prefix.count...], count: count) == bytes)
        #expect(try Deflate.compress(bytes) == Array(out.dropFirst(prefix.count)))
        if count >= 70_000 { #expect(out.count < count) }
    }
}
