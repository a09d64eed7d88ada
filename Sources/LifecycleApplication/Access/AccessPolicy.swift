/// Who may do what: the decision for one request, given the tokens in force (API.md, "Access tokens").
public enum AccessDecision: Equatable, Sendable {
    /// Tokens are off, or the token allows the request (`token` nil when tokens are off or not needed).
    case allowed(token: AccessToken?)
    /// 401: no token, or one that is not in the file.
    case unauthorized(detail: String)
    /// 403: a known token that does not allow this method or namespace.
    case forbidden(token: AccessToken, detail: String)
}

/// What a request touches, as far as access goes.
public enum AccessScope: Equatable, Sendable {
    /// Probes and the contract: `/livez`, `/readyz`, `/v1/openapi.yaml`, `/v1/event-types`, the dashboard's
    /// files.
    case open
    /// `/metrics`, which names every namespace and counts its requests: admin only.
    case metrics
    /// One namespace's resources (the unprefixed paths are the namespace `default`).
    case namespace(String)
    /// The list of namespaces: any known token may ask; the answer holds only what it may read.
    case namespaceList
    /// Every namespace at once (`POST /v1/reset`): admin only.
    case everything
}

public struct AccessPolicy: Sendable {
    /// nil: tokens are off and everything is allowed.
    public let table: TokenTable?

    public init(table: TokenTable?) {
        self.table = table
    }

    public func decide(method: String, scope: AccessScope, authorization: String?) -> AccessDecision {
        guard let table, scope != .open else { return .allowed(token: nil) }
        guard let authorization else {
            return .unauthorized(detail: "this request needs a token: send Authorization: Bearer <token>")
        }
        guard let secret = Self.bearer(authorization) else {
            return .unauthorized(detail: "the Authorization header must be Bearer <token>")
        }
        guard let token = table.token(for: secret) else {
            return .unauthorized(detail: "the token is not one this daemon knows")
        }
        switch scope {
        case .open:
            return .allowed(token: token)
        case .namespaceList:
            return .allowed(token: token)
        case .metrics:
            guard token.role == .admin else {
                return .forbidden(
                    token: token, detail: "only an admin token may read /metrics: it shows every namespace")
            }
            return .allowed(token: token)
        case .everything:
            guard token.role == .admin else {
                return .forbidden(token: token, detail: "only an admin token may act on every namespace at once")
            }
            return .allowed(token: token)
        case .namespace(let namespace):
            guard token.covers(namespace) else {
                return .forbidden(
                    token: token, detail: "the token \(token.name) may not use the namespace \(namespace)")
            }
            guard token.role.allows(method) else {
                return .forbidden(
                    token: token,
                    detail: "the token \(token.name) is a \(token.role.rawValue) token: it may not \(method) here")
            }
            return .allowed(token: token)
        }
    }

    /// Whether `token` may read `namespace`: what `GET /v1/namespaces` keeps.
    public func mayRead(_ namespace: String, token: AccessToken?) -> Bool {
        guard table != nil else { return true }
        guard let token else { return false }
        return token.covers(namespace)
    }

    /// The secret of `Bearer <secret>` (the scheme in any case, RFC 9110 §11.1).
    static func bearer(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let secret = parts[1].trimmingCharacters(in: " ")
        return secret.isEmpty ? nil : secret
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
