package import LifecycleCore
package import LifecycleHosting
package import LifecycleWire

/// Devices and apps made: the daemon's and the namespace's bounds, and the journaling of the creation.
extension Application {
    /// Creates and registers a device; its creation is journaled before `completion` runs. During a reset
    /// the creation waits for the reset to hand its deletion to the journal.
    package func createDevice(
        in space: Namespace, id: String?, request: DeviceRequest,
        completion: @escaping @Sendable (Result<DeviceHost, APIError>) -> Void
    ) throws(APIError) {
        let id = id ?? "d-" + Self.newID()
        let device: Device
        do {
            device = try Device(id: id, configuration: request.configuration)
        } catch {
            throw APIError(error)
        }
        let registry = space.registry
        try admitMemory(
            DeviceHost.describedBytes(of: request.configuration), in: space.name, what: "a device's description")
        space.admitCreation { [self] alive in
            guard alive else {
                return completion(.failure(.notFound("the namespace \(space.name) was deleted; nothing was created")))
            }
            // The whole daemon's bound; concurrent creations in several namespaces may pass it by as many.
            let devices = namespaces.all().reduce(0) { $0 + $1.registry.devices }
            if devices >= options.maxDevices {
                return completion(
                    .failure(
                        .daemonQuotaExceeded(
                            "the daemon holds \(options.maxDevices) devices over every namespace, the most it may "
                                + "(--max-devices); nothing was created", limit: options.maxDevices)))
            }
            let host = makeHost(device, in: space, anchorWall: options.clock.now)
            do throws(Registry.Refusal) {
                try registry.insertDevice(host, limit: options.maxDevicesPerNamespace)
            } catch {
                switch error {
                case .taken: return completion(.failure(.alreadyExists("device \(id) already exists")))
                case .full(let limit):
                    return completion(
                        .failure(
                            .quotaExceeded(
                                "devices", namespace: space.name, limit: limit, option: "--max-devices-per-namespace")))
                }
            }
            host.create { result in
                if case .failure = result { registry.removeDevice(host, apps: []) }
                completion(result.map { _ in host }.mapError(APIError.init))
            }
        }
    }

    /// Creates the app `request` describes (its id, or a new one) on its device, or, without one, on a new
    /// device with default settings (and the app's iOS version), so that a client needs none. `completion` runs
    /// with the app's id and its device as it became once the addition is durable, or with why it was refused.
    package func createApp(
        in space: Namespace, request: AppRequest,
        completion: @escaping @Sendable (Result<(id: String, device: Device), APIError>) -> Void
    ) throws(APIError) {
        let registry = space.registry
        let id = request.id ?? "a-" + Self.newID()
        try admitMemory(
            DeviceHost.describedBytes(ofApp: id, request.configuration), in: space.name, what: "an app's description")
        if let deviceID = request.device {
            guard let host = registry.device(deviceID) else {
                throw .notFound("no device \(deviceID): create it with POST /v1/devices, or leave device out")
            }
            try addApp(id, request, to: host, in: space, completion: completion)
            return
        }
        var deviceRequest = try DeviceRequest(.object([:]))
        if let version = request.configuration.iosVersion { deviceRequest.configuration.iosVersion = version }
        guard registry.app(id) == nil else { throw .alreadyExists("app \(id) already exists") }
        try createDevice(in: space, id: nil, request: deviceRequest) { [self] result in
            switch result {
            case .success(let host):
                do throws(APIError) {
                    try addApp(id, request, to: host, in: space, completion: completion)
                } catch {
                    // Another request took the id meanwhile: the device made for this app goes again.
                    registry.removeDevice(host, apps: [])
                    deleteHost(host, in: registry) { _ in completion(.failure(error)) }
                }
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// Adds the app `id` to `host`, its id reserved first (`reserveApp`) and given back if the addition fails.
    private func addApp(
        _ id: String, _ request: AppRequest, to host: DeviceHost, in space: Namespace,
        completion: @escaping @Sendable (Result<(id: String, device: Device), APIError>) -> Void
    ) throws(APIError) {
        try reserveApp(id, on: host, in: space)
        host.addApp(id: id, configuration: request.configuration) { [registry = space.registry] result in
            switch result {
            case .success(let device):
                completion(.success((id, device)))
            case .failure(let error):
                registry.releaseApp(id, from: host)
                completion(.failure(APIError(error)))
            }
        }
    }

    /// Reserves the app id `id` on `host` in `space`, within the daemon's bound (`--max-apps`) and the
    /// namespace's (`--max-apps-per-namespace`); throws `409` when the id is taken, `403 quota-exceeded` past a
    /// bound. `Registry.releaseApp` gives it back if the app is not made.
    package func reserveApp(_ id: String, on host: DeviceHost, in space: Namespace) throws(APIError) {
        // The whole daemon's bound; concurrent creations in several namespaces may pass it by as many.
        let apps = namespaces.all().reduce(0) { $0 + $1.registry.apps }
        if apps >= options.maxApps {
            throw .daemonQuotaExceeded(
                "the daemon holds \(options.maxApps) apps over every namespace, the most it may (--max-apps); "
                    + "nothing was created", limit: options.maxApps)
        }
        do throws(Registry.Refusal) {
            try space.registry.reserveApp(id, on: host, limit: options.maxAppsPerNamespace)
        } catch {
            switch error {
            case .taken: throw .alreadyExists("app \(id) already exists")
            case .full(let limit):
                throw .quotaExceeded(
                    "apps", namespace: space.name, limit: limit, option: "--max-apps-per-namespace")
            }
        }
    }
}
