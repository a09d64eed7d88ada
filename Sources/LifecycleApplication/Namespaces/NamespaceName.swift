import LifecycleCore
package import LifecycleWire

/// Namespace names: a DNS label, `[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?`, so a name can be a routing key.
public enum NamespaceName {
    public static let pattern = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
    /// The namespace of every unprefixed path (`/v1/devices`, `/v1/apps`, ...).
    package static let defaultName = "default"

    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard (1...63).contains(bytes.count), let first = bytes.first, let last = bytes.last else { return false }
        func alphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard alphanumeric(first), alphanumeric(last) else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    /// The 400 for a name in a path that does not match `pattern`.
    package static func invalid(_ name: String) -> APIError {
        var error = APIError.invalidField(
            "namespace", "a namespace name must match \(pattern) (lowercase letters, digits and -), not \"\(name)\"")
        error.extra["pattern"] = .string(pattern)
        return error
    }
}
