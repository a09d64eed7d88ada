import Dispatch
import LifecycleCore
import LifecycleHosting
package import LifecyclePersistence
import LifecycleStore
package import LifecycleWire
import Locking

extension APIError {
    /// 403 for a creation over a bound of the whole daemon.
    package static func daemonQuotaExceeded(_ detail: String, limit: Int) -> APIError {
        var error = APIError(.quotaExceeded, detail)
        error.extra["limit"] = .number(Double(limit))
        return error
    }

    /// 403 for a creation over a namespace's quota.
    package static func quotaExceeded(_ what: String, namespace: String, limit: Int, option: String) -> APIError {
        var error = APIError(
            .quotaExceeded,
            "the namespace \(namespace) holds \(limit) \(what) already, the most it may (\(option)); "
                + "nothing was created")
        error.extra["limit"] = .number(Double(limit))
        return error
    }
}

extension Application {
    /// The namespace `name`, created (and journaled) with `settings` if missing, unless that would pass
    /// `--max-namespaces`, or `--max-namespaces-per-token` for the token of the request's `authorization` (not
    /// an admin's; `method` is the request's). `authorization` is asked only for a creation.
    package func obtainNamespace(
        _ name: String, settings: NamespaceSettings, method: String, authorization: () -> String?
    ) throws(APIError) -> (space: Namespace, created: Bool) {
        // The common case, a namespace that exists, asks nothing of the tokens: the creator is looked up
        // only for a creation.
        if let space = namespaces.existing(name) { return (space, false) }
        var settings = settings
        let policy = access.withLock { $0 }
        var creator: AccessToken?
        if policy.table != nil,
            case .allowed(let token?) = policy.decide(
                method: method, scope: .namespace(name), authorization: authorization()),
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
    package func writeSettingsRecord(of space: Namespace) {
        space.markJournaled()
        guard journal.keepsRecords else { return }
        let record = space.settings.record
        journal.append(stream: space.settingsStream, record: record, startsStream: true) { [weak self] result in
            if case .failure(let error) = result, error != .closed { self?.storeDidFail(error) }
        }
    }

    /// Applies `change` to the settings of `space`, notes it used at `now` and journals the settings; false
    /// when the namespace was deleted meanwhile (nothing changed then).
    package func updateSettings(of space: Namespace, at now: Double, _ change: (inout NamespaceSettings) -> Void)
        -> Bool
    {
        namespaces.whilePresent(space) {
            space.updateSettings(change)
            space.touch(at: now)
            writeSettingsRecord(of: space)
        }
    }

    /// `PUT` of a namespace: creates it with `change` applied to fresh settings (`created`), or applies `change`
    /// to its settings and journals them (created afresh if it was deleted meanwhile). A frozen one is answered
    /// once no change to it is under way, so that what is read next holds them all; after `freezeDeadline`
    /// seconds with some still under way, `503 not-ready`.
    package func putNamespace(
        _ name: String, method: String, authorization: () -> String?, change: (inout NamespaceSettings) -> Void,
        completion: @escaping @Sendable (Result<(space: Namespace, created: Bool), APIError>) -> Void
    ) throws(APIError) {
        let now = options.clock.now
        while true {
            var settings = NamespaceSettings(createdAt: now, lastUsedAt: now)
            change(&settings)
            let (space, created) = try obtainNamespace(
                name, settings: settings, method: method, authorization: authorization)
            if created { return completion(.success((space, true))) }
            // Deleted meanwhile: the PUT creates it afresh.
            if updateSettings(of: space, at: now, change) {
                let started = ContinuousClock.now
                return afterChangesUnderWay(in: space, since: started) { drained in
                    completion(drained ? .success((space, false)) : .failure(Self.stillUnderWay(space)))
                }
            }
        }
    }

    /// Runs `then` once no change to `space` is under way (`true`), or after `freezeDeadline` seconds with
    /// some still under way (`false`); at once when the namespace takes changes.
    private func afterChangesUnderWay(
        in space: Namespace, since started: ContinuousClock.Instant, _ then: @escaping @Sendable (Bool) -> Void
    ) {
        guard space.writes.isFrozen, space.writes.inFlight > 0 else { return then(true) }
        guard ContinuousClock.now - started < .seconds(Self.freezeDeadline) else { return then(false) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { [self] in
            afterChangesUnderWay(in: space, since: started, then)
        }
    }

    /// How long a freeze waits for the changes under way, in seconds.
    static let freezeDeadline = 30

    static func stillUnderWay(_ space: Namespace) -> APIError {
        APIError.notReady(
            "the namespace \(space.name) is frozen, but \(space.writes.inFlight) changes to it are still under way "
                + "after \(freezeDeadline) s; ask again")
    }
}
