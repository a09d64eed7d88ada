import LifecycleCore
import LifecycleJSON
import LifecycleWire

/// The tokens file of `--tokens FILE` (API.md, "Access tokens"):
/// `{"tokens": [{"name", "sha256", "role", "namespaces"}]}`, read strictly: anything it does not
/// understand is an error that names where it is, so a typo never silently locks someone out or in.
public enum TokenFile {
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The tokens the file's bytes describe, or the first thing wrong with them.
    public static func parse(_ bytes: [UInt8]) throws(Error) -> [AccessToken] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw Error(description: "not JSON: \(error)")
        }
        guard case .object(let top) = document else { throw Error(description: "the file must be a JSON object") }
        if let extra = top.keys.first(where: { $0 != "tokens" }) {
            throw Error(description: "unknown member \(extra); the file has only \"tokens\"")
        }
        guard case .array(let items)? = top["tokens"] else {
            throw Error(description: "\"tokens\" must be an array of token objects")
        }
        var tokens: [AccessToken] = []
        var names = Set<String>()
        var digests = Set<[UInt8]>()
        for (index, item) in items.enumerated() {
            let token = try parseToken(item, at: "tokens[\(index)]")
            guard names.insert(token.name).inserted else {
                throw Error(description: "tokens[\(index)].name: \(token.name) is used twice; names must be unique")
            }
            guard digests.insert(token.digest).inserted else {
                throw Error(description: "tokens[\(index)].sha256: the same hash is listed twice")
            }
            tokens.append(token)
        }
        return tokens
    }

    private static func parseToken(_ item: JSONValue, at place: String) throws(Error) -> AccessToken {
        guard case .object(let members) = item else { throw Error(description: "\(place) must be an object") }
        let known: Set<String> = ["name", "sha256", "role", "namespaces"]
        if let extra = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw Error(description: "\(place): unknown member \(extra); allowed: name, sha256, role, namespaces")
        }
        guard let name = members["name"]?.stringValue, !name.isEmpty, name.utf8.count <= 128,
            name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw Error(description: "\(place).name must be 1 to 128 printable ASCII characters without spaces")
        }
        guard let hex = members["sha256"]?.stringValue, let digest = Hex.decode(hex), digest.count == 32 else {
            throw Error(
                description: "\(place).sha256 must be 64 hexadecimal digits: the SHA-256 of the token "
                    + "(lifecycled token new prints it)")
        }
        guard let roleName = members["role"]?.stringValue, let role = AccessRole(rawValue: roleName) else {
            throw Error(description: "\(place).role must be one of read, write, admin")
        }
        var namespaces: [NamespacePattern]?
        switch members["namespaces"] {
        case nil where role == .admin:
            namespaces = nil
        case nil:
            throw Error(description: "\(place).namespaces is required for a \(role.rawValue) token, e.g. [\"mail-*\"]")
        case .array(let patterns)?:
            var parsed: [NamespacePattern] = []
            for (index, value) in patterns.enumerated() {
                guard let text = value.stringValue, let pattern = NamespacePattern(text) else {
                    throw Error(
                        description: "\(place).namespaces[\(index)] must be a namespace name "
                            + "(\(NamespaceName.pattern)) or a prefix of one followed by *")
                }
                parsed.append(pattern)
            }
            guard !parsed.isEmpty else { throw Error(description: "\(place).namespaces must not be empty") }
            namespaces = parsed
        case .some:
            throw Error(description: "\(place).namespaces must be an array of namespace names or globs")
        }
        return AccessToken(name: name, digest: digest, role: role, namespaces: namespaces)
    }
}

/// Lower- or upper-case hexadecimal.
package enum Hex {
    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension TokenFile {
    /// Whether `text` may stand in a token's `namespaces`: a namespace name, or a prefix of one ending in `*`.
    public static func isNamespacePattern(_ text: String) -> Bool { NamespacePattern(text) != nil }

    /// The line to add to a tokens file for a token with this secret: checked by the same rules as the file.
    public static func line(name: String, secret: String, role: AccessRole, namespaces: [String]) throws(Error)
        -> String
    {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.beginObject()
        writer.field("name")
        writer.string(name)
        writer.field("sha256")
        writer.string(TokenMinter.sha256Hex(secret))
        writer.field("role")
        writer.string(role.rawValue)
        if role != .admin || !namespaces.isEmpty {
            writer.field("namespaces")
            writer.beginArray()
            for namespace in namespaces { writer.string(namespace) }
            writer.endArray()
        }
        writer.endObject()
        let entry = writer.bytes
        _ = try parse(Array("{\"tokens\": [".utf8) + entry + Array("]}".utf8))
        return String(decoding: entry, as: UTF8.self)
    }
}
