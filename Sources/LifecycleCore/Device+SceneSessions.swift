/// Scene sessions: which apps have them, how they are made, which come forward (LIFECYCLE §11.1, §11.8).
extension Device {
    func usesScenes(_ id: String) -> Bool { capabilities(of: id).usesScenes }

    /// A new session, named by the client or `s1`, `s2`, ... (never reused; §11.8), with its configuration (§11.1).
    mutating func createSession(_ id: String, named name: String? = nil) -> String {
        var book = apps[existing: id].scenes
        var sessionID = name ?? ""
        if name == nil {
            var taken: Bool
            repeat {
                sessionID = "s\(book.nextNumber)"
                taken = book.isTaken(sessionID)
                book.nextNumber += 1
            } while taken
        }
        let app = apps[existing: id]
        let manifest = app.configuration.info.sceneManifest ?? SceneManifest()
        let fromCode =
            app.delegate.implements(Selector.configurationForConnecting)
            ? app.delegate.configurationForConnecting : nil
        let configuration: String?
        let hasDelegate: Bool
        if let fromCode, !manifest.configurations.contains(where: { $0.name == fromCode }) {
            // A name the manifest does not list is a configuration made in code, with a delegate.
            configuration = fromCode
            hasDelegate = true
        } else {
            let chosen =
                manifest.configurations.first { $0.name == fromCode }
                ?? manifest.configurations.first { $0.role == SceneRole.application }
            configuration = chosen?.name
            hasDelegate = chosen?.delegateClass != nil
        }
        book.sessions.append(
            SceneSession(
                id: sessionID, configuration: configuration, role: SceneRole.application, stateSince: time,
                hasDelegate: hasDelegate))
        apps[existing: id].scenes = book
        return sessionID
    }

    /// The most recently activated of `candidates` (the newest created when none was ever active).
    func mostRecent(_ id: String, of candidates: [String]) -> String? {
        let sessions = apps[existing: id].sessions.filter { candidates.contains($0.id) }
        return sessions.enumerated().max { lhs, rhs in
            (lhs.element.activation, lhs.offset) < (rhs.element.activation, rhs.offset)
        }?.element.id
    }

    /// The sessions that come forward (§11.8): the last foreground set, else the most recently activated;
    /// a cold launch only the latter. Empty: a new session is needed.
    func foregroundTargets(_ id: String, cold: Bool) -> [String] {
        let app = apps[existing: id]
        let live = app.sessions.filter { !$0.pendingDiscard }.map(\.id)
        if !cold {
            let set = app.scenes.lastForegroundSet.filter { live.contains($0) }
            if !set.isEmpty { return set }
        }
        return mostRecent(id, of: live).map { [$0] } ?? []
    }
}

extension Device {
    /// Whether `app` uses the scene life cycle on this device (LIFECYCLE §11.1): what the snapshot's `lifecycle` shows.
    public func usesScenes(_ app: AppInstance) -> Bool { capabilities(of: app).usesScenes }
}
