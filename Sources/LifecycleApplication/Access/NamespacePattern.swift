/// A namespace name, or a prefix of names ending in `*` (`mail-*`, `*`): the only glob a token file takes.
package struct NamespacePattern: Equatable, Sendable, CustomStringConvertible {
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

    package var description: String { text }
}
