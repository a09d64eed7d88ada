/// External accessories across the background (LIFECYCLE §6, seed 000 §3.3 (8)).
extension Device {
    /// Whether the app's accessory session lasts only while it is in front: it declares accessory protocols
    /// and not the `external-accessory` background mode, which keeps the session in the background (chosen).
    func closesAccessorySessionInBackground(_ id: String) -> Bool {
        apps[existing: id].configuration.info.closesAccessorySessionInBackground
    }

    /// Whether the app hears accessories come and go now: always, unless its session is closed in the background.
    func hearsOfAccessories(_ id: String) -> Bool {
        !closesAccessorySessionInBackground(id) || apps[existing: id].state.isForeground
    }

    private var accessoryConnected: Bool { settings[ChangeKind.accessory.rawValue] == "connected" }

    /// The app has just entered the background: the system disconnects the accessory from it.
    mutating func closeAccessorySession(_ id: String) {
        // The app's declaration first: most apps declare no protocol, and it is the cheaper question.
        guard closesAccessorySessionInBackground(id), accessoryConnected else { return }
        post(id, ChangeKind.accessory.notificationName(for: "disconnected"), ["reason": "appEnteredBackground"])
    }

    /// The app is coming back to the foreground: the matching connection, if the accessory is still there.
    mutating func reopenAccessorySession(_ id: String) {
        guard closesAccessorySessionInBackground(id), accessoryConnected else { return }
        post(id, ChangeKind.accessory.notificationName(for: "connected"), ["reason": "appWillEnterForeground"])
    }
}
