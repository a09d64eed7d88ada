package import LifecycleHosting
package import LifecycleWire

/// Devices and apps deleted: durably, their ids given back to the namespace's registry.
extension Application {
    /// Deletes the device `id` of `space` and its apps; `404` when there is none. `completion` runs once the
    /// deletion is durable, or with why it is not.
    package func deleteDevice(
        _ id: String, in space: Namespace, completion: @escaping @Sendable (Result<Void, APIError>) -> Void
    ) throws(APIError) {
        let host = try deviceHost(id, in: space)
        space.registry.removeDevice(host, apps: [])
        deleteHost(host, in: space.registry) { result in completion(result.mapError(APIError.init)) }
    }

    /// Deletes a host taken out of the registry, and gives back every app id it holds.
    package func deleteHost(
        _ host: DeviceHost, in registry: Registry, completion: @escaping @Sendable (Result<Void, HostError>) -> Void
    ) {
        host.delete(
            releaseApps: { apps in
                for app in apps { registry.releaseApp(app, from: host) }
            },
            completion: completion)
    }

    /// Deletes the app `id` of `space`; `404` when there is none. Its id is given back once the deletion is
    /// durable.
    package func deleteApp(
        _ id: String, in space: Namespace, completion: @escaping @Sendable (Result<Void, APIError>) -> Void
    ) throws(APIError) {
        let host = try appHost(id, in: space)
        host.removeApp(id: id) { [registry = space.registry] result in
            if case .success = result { registry.releaseApp(id, from: host) }
            completion(result.mapError(APIError.init))
        }
    }
}
