/// The tokens in force, looked up by the SHA-256 of a presented secret.
///
/// Every lookup hashes the secret once and compares the hash with every listed one in constant time,
/// without stopping at a match: how long a lookup takes says nothing about which tokens exist.
public struct TokenTable: Sendable {
    public let tokens: [AccessToken]

    public init(_ tokens: [AccessToken]) {
        self.tokens = tokens
    }

    /// The token whose secret is `secret`, if any.
    public func token(for secret: String) -> AccessToken? {
        let digest = SHA256.hash(Array(secret.utf8))
        var found: AccessToken?
        for token in tokens where Self.constantTimeEqual(token.digest, digest) {
            found = token
        }
        return found
    }

    /// Whether two byte strings of the same length are equal, in time that depends only on the length.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// New tokens: 32 random bytes from the system's secure generator, base64url.
public enum TokenMinter {
    /// A fresh secret, `lcd_` and 43 base64url characters. The bytes are `SystemRandomNumberGenerator`'s, which
    /// on Linux reads `getrandom(2)` (the kernel's cryptographically secure generator, waiting until it is
    /// seeded) and `/dev/urandom` where that call is missing.
    public static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
        return "lcd_" + base64URL(bytes)
    }

    /// The lowercase hex SHA-256 of `secret`: what the tokens file lists.
    public static func sha256Hex(_ secret: String) -> String {
        Hex.encode(SHA256.hash(Array(secret.utf8)))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { word |= UInt32(byte) << (16 - 8 * offset) }
            let characters = chunk.count + 1
            for position in 0..<characters { out.append(alphabet[Int((word >> (18 - 6 * position)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
