/// A namespace name, or a prefix of names ending in `*` (`mail-*`, `*`): the only glob a token file takes.
struct NamespacePattern: Equatable, Sendable, CustomStringConvertible {
    let text: String

    /// The pattern, or nil when it is neither a namespace name nor a prefix of one followed by one `*`.
    init?(_ text: String) {
        let body = text.hasSuffix("*") ? String(text.dropLast()) : text
        guard !body.contains("*"), body.utf8.count <= 63 else { return nil }
        guard body.utf8.allSatisfy({ Self.allowed($0) }) else { return nil }
        // A whole name must be a name; a prefix may end in a hyphen (`mail-*`).
        if !text.hasSuffix("*") && !NamespaceName.isValid(body) { return nil }
        if text.hasSuffix("*"), let first = body.utf8.first, first == UInt8(ascii: "-") { return nil }
        self.text = text
    }

    private static func allowed(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-")
    }

    func matches(_ namespace: String) -> Bool {
        if text.hasSuffix("*") { return namespace.hasPrefix(text.dropLast()) }
        return namespace == text
    }

    var description: String { text }
}

/// Namespace names: a DNS label, `[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?`, so a name can be a routing key.
public enum NamespaceName {
    public static let pattern = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"

    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...63).contains(bytes.count) else { return false }
        func alphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard alphanumeric(bytes[0]), alphanumeric(bytes[bytes.count - 1]) else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: "-") }
    }
}
