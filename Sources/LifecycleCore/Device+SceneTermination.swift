/// Scene apps ending and scenes reclaimed: `forceQuit` (LIFECYCLE §11.10) and `sceneDisconnectDelay` (§11.9).
extension Device {
    /// `forceQuit` of a scene app (§11.10): a running one deactivates, disconnects, discards every session and
    /// gets `applicationWillTerminate:`; a suspended or not-running one only has its sessions marked for discard.
    mutating func forceQuitScenes(_ id: String) {
        switch apps[existing: id].state {
        case .active, .inactive, .background:
            for scene in apps[existing: id].sessions where scene.state == .foregroundActive {
                guard deactivate(id, scene: scene.id) else { return }
            }
            for scene in apps[existing: id].sessions where scene.state.isConnected {
                guard disconnect(id, scene: scene.id, recompute: false) else { return }
            }
            let all = apps[existing: id].sessions.map(\.id)
            if !all.isEmpty {
                // An app launched in the background may have no session: there is nothing to discard then.
                discard(id, all)
                let args: [String: JSONValue] = ["sessions": .array(all.map(JSONValue.string))]
                guard invoke(id, Selector.didDiscardSceneSessions, args: args) != nil else { return }
            }
            terminateRunning(id, .forceQuit)
        case .suspended:
            end(id, .forceQuit, notified: false)
            markForDiscard(id, apps[existing: id].sessions.map(\.id))
        case .notRunning:
            markForDiscard(id, apps[existing: id].sessions.map(\.id))
        }
    }

    private mutating func markForDiscard(_ id: String, _ sessions: [String]) {
        for index in apps[existing: id].sessions.indices
        where sessions.contains(apps[existing: id].sessions[index].id)
            && !apps[existing: id].sessions[index].pendingDiscard
        {
            apps[existing: id].scenes.sessions[index].pendingDiscard = true
            quietChange = true
        }
    }

    /// A scene that stayed `background` for `sceneDisconnectDelay` in a living process (§11.9).
    func sceneDisconnectTime(of id: String) -> Double? {
        guard let delay = configuration.sceneDisconnectDelay, apps[existing: id].state != .notRunning else {
            return nil
        }
        return apps[existing: id].sessions.compactMap {
            $0.state == .background ? $0.backgroundSince.map { $0 + delay } : nil
        }.min()
    }

    /// Disconnects every scene whose delay ran out; a suspended app first runs again in the background.
    mutating func disconnectIdleScenes(_ id: String) {
        guard let delay = configuration.sceneDisconnectDelay else { return }
        for scene in apps[existing: id].sessions where scene.state == .background {
            guard let since = scene.backgroundSince, since + delay <= time else { continue }
            wakeInBackground(id)
            guard disconnect(id, scene: scene.id) else { return }
        }
    }
}
