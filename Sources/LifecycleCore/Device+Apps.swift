extension Device {
    /// Adds a not-running app; throws when the configuration is invalid or the id is taken on this device.
    @discardableResult
    public mutating func addApp(id: String, configuration: AppConfiguration) throws(Rejection) -> AppInstance {
        if let failure = configuration.validationFailure() { throw failure }
        if let target = configuration.iosVersion, target > self.configuration.iosVersion {
            throw .invalidField(
                "iosVersion",
                "app \(id) needs iOS \(target) (its iosVersion, the deployment target) but device \(self.id) runs "
                    + "iOS \(self.configuration.iosVersion); give the app an iosVersion of at most "
                    + "\(self.configuration.iosVersion), or put it on a device that runs iOS \(target) or later")
        }
        if !self.configuration.iosVersion.hasBackgroundTransfers,
            let selector = configuration.delegate.actions?.sorted(by: { $0.key < $1.key }).first(where: {
                $0.value.contains { $0.name == .startBackgroundTransfer }
            })?.key
        {
            throw .invalidField(
                "delegate.actions",
                "\(selector) starts a background transfer, but background URL sessions exist from iOS 7.0 and device "
                    + "\(self.id) runs iOS \(self.configuration.iosVersion)")
        }
        if let failure = scheduledTaskVersionFailure(of: configuration) { throw failure }
        guard !apps.contains(id) else {
            throw Rejection(code: .invalidTransition, detail: "app \(id) already exists on device \(self.id)")
        }
        let app = AppInstance(
            id: id, ordinal: nextOrdinal, configuration: configuration,
            iosVersion: configuration.iosVersion ?? self.configuration.iosVersion, time: time)
        nextOrdinal += 1
        apps[id] = app
        appOrder.append(id)
        return app
    }

    /// Removes an app whatever its state, with no callback: the app is deleted, not terminated.
    public mutating func removeApp(id: String) throws(Rejection) {
        guard apps.contains(id) else {
            throw Rejection(code: .notFound, detail: "no app \(id) on device \(self.id)")
        }
        apps[id] = nil
        appOrder.removeAll { $0 == id }
        if foregroundApp == id { foregroundApp = nil }
        if appBeforeLock == id { appBeforeLock = nil }
    }
}
