import Locking
import Synchronization

/// Which host holds each device and app. Sharded by id so lookups on the request path never share one lock.
package final class Registry: Sendable {
    private final class Shard: Sendable {
        package let maps = Protected(Maps())
    }

    private struct Maps {
        package var devices: [String: DeviceHost] = [:]
        package var apps: [String: DeviceHost] = [:]
    }

    private let shards: [Shard]
    private let deviceCount = Atomic<Int>(0)
    private let appTotal = Atomic<Int>(0)
    /// Bumped whenever an app id comes or goes: the version of `sortedApps`.
    private let appsVersion = Atomic<UInt64>(0)
    private let sortedApps = Protected<(version: UInt64, apps: [(id: String, host: DeviceHost)])?>(nil)

    package init(shardCount: Int = 64) {
        shards = (0..<shardCount).map { _ in Shard() }
    }

    private func shard(_ id: String) -> Shard { shards[shardIndex(id)] }

    private func shardIndex(_ id: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(shards.count))
    }

    package var devices: Int { deviceCount.load(ordering: .relaxed) }
    package var apps: Int { appTotal.load(ordering: .relaxed) }

    package func device(_ id: String) -> DeviceHost? { shard(id).maps.withLock { $0.devices[id] } }
    package func app(_ id: String) -> DeviceHost? { shard(id).maps.withLock { $0.apps[id] } }

    /// Why an insertion did not happen.
    package enum Refusal: Error {
        case taken
        /// The registry already holds `limit` of that kind.
        case full(limit: Int)
    }

    /// Adds a device; false when the id is taken.
    package func insertDevice(_ host: DeviceHost) -> Bool {
        (try? insertDevice(host, limit: .max)) != nil
    }

    /// Adds a device unless the id is taken or the registry holds `limit` devices already.
    package func insertDevice(_ host: DeviceHost, limit: Int) throws(Refusal) {
        try Self.claim(deviceCount, limit: limit)
        let inserted = shard(host.id).maps.withLock { maps -> Bool in
            guard maps.devices[host.id] == nil else { return false }
            maps.devices[host.id] = host
            return true
        }
        guard inserted else {
            deviceCount.subtract(1, ordering: .relaxed)
            throw .taken
        }
    }

    /// Claims an app id for `host`; false when the id is taken.
    package func reserveApp(_ id: String, on host: DeviceHost) -> Bool {
        (try? reserveApp(id, on: host, limit: .max)) != nil
    }

    /// Claims an app id for `host` unless it is taken or the registry holds `limit` apps already.
    package func reserveApp(_ id: String, on host: DeviceHost, limit: Int) throws(Refusal) {
        try Self.claim(appTotal, limit: limit)
        let inserted = shard(id).maps.withLock { maps -> Bool in
            guard maps.apps[id] == nil else { return false }
            maps.apps[id] = host
            return true
        }
        guard inserted else {
            appTotal.subtract(1, ordering: .relaxed)
            throw .taken
        }
        appsVersion.add(1, ordering: .releasing)
    }

    /// Counts one more in `count` unless it holds `limit` already: concurrent claims never pass the limit.
    private static func claim(_ count: borrowing Atomic<Int>, limit: Int) throws(Refusal) {
        var current = count.load(ordering: .relaxed)
        while true {
            guard current < limit else { throw .full(limit: limit) }
            let (exchanged, original) = count.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Gives an app id back, if `host` still holds it.
    package func releaseApp(_ id: String, from host: DeviceHost) {
        let removed = shard(id).maps.withLock { maps -> Bool in
            guard maps.apps[id] === host else { return false }
            maps.apps[id] = nil
            return true
        }
        if removed {
            appTotal.subtract(1, ordering: .relaxed)
            appsVersion.add(1, ordering: .releasing)
        }
    }

    /// Removes a device and the given apps of it.
    package func removeDevice(_ host: DeviceHost, apps: [String]) {
        let removed = shard(host.id).maps.withLock { maps -> Bool in
            guard maps.devices[host.id] === host else { return false }
            maps.devices[host.id] = nil
            return true
        }
        if removed { deviceCount.subtract(1, ordering: .relaxed) }
        for app in apps { releaseApp(app, from: host) }
    }

    /// Adds devices with their apps all at once, holding every shard, so no request sees some of them: unless
    /// an id is taken, or the registry would hold more than `deviceLimit` devices or `appLimit` apps. Then it
    /// adds none and says why (`taken` with the id).
    package func insertAll(
        _ hosts: [(host: DeviceHost, apps: [String])], deviceLimit: Int, appLimit: Int
    ) throws(InsertionRefusal) {
        let apps = hosts.reduce(0) { $0 + $1.apps.count }
        var refusal: InsertionRefusal?
        // Each shard's maps, reached through its lock while every lock is held.
        var held: [UnsafeMutablePointer<Maps>] = []
        func maps(_ id: String) -> UnsafeMutablePointer<Maps> { held[shardIndex(id)] }
        func insert(_ index: Int) {
            guard index == shards.count else {
                return shards[index].maps.withLock { shardMaps in
                    withUnsafeMutablePointer(to: &shardMaps) { pointer in
                        held.append(pointer)
                        insert(index + 1)
                    }
                }
            }
            if devices + hosts.count > deviceLimit { return refusal = .full(device: true, limit: deviceLimit) }
            if self.apps + apps > appLimit { return refusal = .full(device: false, limit: appLimit) }
            for (host, hostApps) in hosts {
                if maps(host.id).pointee.devices[host.id] != nil { return refusal = .taken(device: true, id: host.id) }
                for app in hostApps where maps(app).pointee.apps[app] != nil {
                    return refusal = .taken(device: false, id: app)
                }
            }
            for (host, hostApps) in hosts {
                maps(host.id).pointee.devices[host.id] = host
                for app in hostApps { maps(app).pointee.apps[app] = host }
            }
            deviceCount.add(hosts.count, ordering: .relaxed)
            appTotal.add(apps, ordering: .relaxed)
            appsVersion.add(1, ordering: .releasing)
        }
        insert(0)
        if let refusal { throw refusal }
    }

    /// Why `insertAll` added nothing.
    package enum InsertionRefusal: Error {
        case taken(device: Bool, id: String)
        case full(device: Bool, limit: Int)
    }

    /// Empties the registry, holding every shard at once so no request sees half of it; returns the devices.
    package func removeAll() -> [DeviceHost] {
        var hosts: [DeviceHost] = []
        func clear(_ index: Int) {
            guard index < shards.count else {
                deviceCount.store(0, ordering: .relaxed)
                appTotal.store(0, ordering: .relaxed)
                appsVersion.add(1, ordering: .releasing)
                return
            }
            shards[index].maps.withLock { maps in
                clear(index + 1)
                hosts += maps.devices.values
                maps = Maps()
            }
        }
        clear(0)
        return hosts
    }

    /// Every device host, in no particular order.
    package func allDevices() -> [DeviceHost] {
        shards.flatMap { shard in shard.maps.withLock { Array($0.devices.values) } }
    }

    /// Every app id with its host, sorted by id. Sorting a million ids takes a while, so the sorted list
    /// is kept until an app is added or removed: a dashboard paging through every app sorts once.
    package func appsSortedByID() -> [(id: String, host: DeviceHost)] {
        let version = appsVersion.load(ordering: .acquiring)
        if let cached = sortedApps.withLock({ $0 }), cached.version == version { return cached.apps }
        var apps = allApps()
        apps.sort { $0.id < $1.id }
        sortedApps.withLock { $0 = (version, apps) }
        return apps
    }

    /// Every app id with its host, in no particular order.
    func allApps() -> [(id: String, host: DeviceHost)] {
        shards.flatMap { shard in shard.maps.withLock { maps in maps.apps.map { ($0.key, $0.value) } } }
    }
}
