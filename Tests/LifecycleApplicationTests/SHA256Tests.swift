import Testing

@testable import LifecycleApplication

/// The tokens' digest (`SHA256`, FIPS 180-4) against the standard's own examples and, across every length that
/// pads differently (one block, two, the length field alone in the last), against digests Python's `hashlib`
/// gave for the same messages.
@Suite("SHA-256")
struct SHA256Tests {
    static func hex(_ message: [UInt8]) -> String { Hex.encode(SHA256.hash(message)) }

    @Test("the examples of FIPS 180-4 and its one million a's")
    func standardExamples() {
        #expect(Self.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let long =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
            + "mnopqrstnopqrstu"
        #expect(Self.hex(Array(long.utf8)) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(
            Self.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("every length from 0 to 199 bytes, as hashlib hashes them")
    func everyLengthAcrossThePadding() {
        // Message i: i bytes, byte j = (7j + i) mod 256. The digest of the 200 digests put end to end, from
        // hashlib.sha256 over the same messages.
        var digests: [UInt8] = []
        for length in 0..<200 {
            digests += SHA256.hash((0..<length).map { UInt8(($0 * 7 + length) % 256) })
        }
        #expect(Self.hex(digests) == "8c7c9ff69da76fc28823a1cb97268672663e628e1ea955868b16db46bab0545d")
    }

    @Test("what the tokens file lists of a secret, and a minted secret's form")
    func tokensDigestAndMintedSecret() {
        #expect(
            TokenMinter.sha256Hex("lcd_example") == "b52e5fdbef146cc4d4658316d1d8653c412c92f905007bb05ca4e66f4f5c26b8")
        let first = TokenMinter.newSecret()
        let second = TokenMinter.newSecret()
        #expect(first.hasPrefix("lcd_") && first.utf8.count == 47)
        #expect(first.dropFirst(4).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(first != second)
    }
}
