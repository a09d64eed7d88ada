/// One token of the tokens file: known by the SHA-256 of its secret, never by the secret itself.
public struct AccessToken: Equatable, Sendable {
    public let name: String
    /// SHA-256 of the token's UTF-8 bytes.
    let digest: [UInt8]
    public let role: AccessRole
    /// The namespaces it may use; nil for an admin token (every namespace).
    let namespaces: [NamespacePattern]?

    /// Whether the token may use `namespace` at all.
    func covers(_ namespace: String) -> Bool {
        guard let namespaces else { return true }
        return namespaces.contains { $0.matches(namespace) }
    }
}
