import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleStore
import LifecycleWire
import Locking

/// The namespace a resource request acts in, and how it named it (for `Location`).
struct RequestScope: Sendable {
    let space: Namespace
    /// Whether the path was `/v1/namespaces/{ns}/...` (else an unprefixed path, the namespace `default`).
    let namespaced: Bool

    var registry: Registry { space.registry }

    /// `rest` (e.g. `/apps/mail`) under the path the request used.
    func path(_ rest: String) -> String { space.pathPrefix(namespaced: namespaced) + rest }
}

extension APIError {
    /// 403 for a creation over a bound of the whole daemon.
    static func daemonQuotaExceeded(_ detail: String, limit: Int) -> APIError {
        var error = APIError(.quotaExceeded, detail)
        error.extra["limit"] = .number(Double(limit))
        return error
    }

    /// 403 for a creation over a namespace's quota.
    static func quotaExceeded(_ what: String, namespace: String, limit: Int, option: String) -> APIError {
        var error = APIError(
            .quotaExceeded,
            "the namespace \(namespace) holds \(limit) \(what) already, the most it may (\(option)); "
                + "nothing was created")
        error.extra["limit"] = .number(Double(limit))
        return error
    }
}

extension LifecycleService {
    /// The namespace `match` names (`default` for an unprefixed path): a `POST` creates a missing one with
    /// default settings, anything else answers 404 for it. Every request that names a namespace keeps it
    /// alive (`lastUsedAt`).
    func requestScope(_ match: Route.Match, _ request: HTTPRequest) throws(APIError) -> RequestScope {
        let name = match.namespace ?? NamespaceName.defaultName
        let now = options.clock.now
        let space: Namespace
        if request.method == "POST" {
            space = try obtainNamespace(
                name, settings: NamespaceSettings(createdAt: now, lastUsedAt: now), request: request
            ).space
        } else if let existing = namespaces.existing(name) {
            space = existing
        } else {
            throw .notFound(
                "no namespace \(name); a POST into it, or PUT /v1/namespaces/\(name), creates it")
        }
        space.touch(at: now)
        return RequestScope(space: space, namespaced: match.namespace != nil)
    }

    /// The namespace `name`, created (and journaled) with `settings` if missing, unless that would pass
    /// `--max-namespaces`, or `--max-namespaces-per-token` for the token `request` came with (not an admin's).
    func obtainNamespace(_ name: String, settings: NamespaceSettings, request: HTTPRequest) throws(APIError)
        -> (space: Namespace, created: Bool)
    {
        // The common case, a namespace that exists, asks nothing of the tokens: the creator is looked up
        // only for a creation.
        if let space = namespaces.existing(name) { return (space, false) }
        var settings = settings
        let policy = access.withLock { $0 }
        var creator: AccessToken?
        if policy.table != nil,
            case .allowed(let token?) = policy.decide(
                method: request.method, scope: .namespace(name), authorization: request.header(.authorization)),
            token.role != .admin
        {
            creator = token
            settings.createdBy = token.name
        }
        let maxNamespaces = options.maxNamespaces
        let maxPerToken = options.maxNamespacesPerToken
        return try namespaces.obtain(
            name, settings: settings,
            admit: { others in
                if others.count >= maxNamespaces {
                    return .daemonQuotaExceeded(
                        "the daemon holds \(maxNamespaces) namespaces besides default, the most it may "
                            + "(--max-namespaces); nothing was created", limit: maxNamespaces)
                }
                if let creator, others.lazy.filter({ $0.settings.createdBy == creator.name }).count >= maxPerToken {
                    return .daemonQuotaExceeded(
                        "the token \(creator.name) has created \(maxPerToken) namespaces that still exist, the most "
                            + "one token may (--max-namespaces-per-token); delete one, or ask for an admin to create it",
                        limit: maxPerToken)
                }
                return nil
            },
            created: { space in writeSettingsRecord(of: space) })
    }

    /// Journals the namespace's settings as the one record of its stream. Call under the table's lock
    /// (`NamespaceTable.obtain`, `whilePresent`), so it never lands after the namespace's deletion.
    func writeSettingsRecord(of space: Namespace) {
        space.markJournaled()
        guard journal.keepsRecords else { return }
        let record = space.settings.record
        journal.append(stream: space.settingsStream, record: record, startsStream: true) { [weak self] result in
            if case .failure(let error) = result, error != .closed { self?.storeDidFail(error) }
        }
    }
}
