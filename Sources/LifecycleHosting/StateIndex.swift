package import LifecycleCore
import Locking
import Synchronization

/// Which apps of a namespace are in each state, so `GET /v1/apps?state=` visits the apps in that state, not
/// every app. Built on the first such listing (a namespace never filtered pays nothing), then kept by every
/// published change (`update`), before the change is answered: a client that saw an app change state
/// finds it under the new state.
///
/// Apps of a realtime device are not filed by state: their state moves with the clock between events
/// (readers project it), so every listing visits them. Listings check each candidate's state under its
/// device's lock, so the index only has to hold every app that may be in a state; it never decides alone.
///
/// Lock order: the index, then a device's `shared`; hosts publish before they call `update`, outside
/// their lock.
package final class StateIndex: Sendable {
    package typealias Candidate = (id: String, host: DeviceHost)

    private struct Files {
        package var built = false
        var byState: [AppState: [String: DeviceHost]] = [:]
        var stateOf: [String: AppState] = [:]
        /// Apps of realtime devices, always visited.
        package var realtime: [String: DeviceHost] = [:]
        /// Bumped when the apps filed under a state (or the realtime apps) change: the version of `sorted`.
        package var versions: [AppState?: UInt64] = [:]
        package var sorted: [AppState?: (version: UInt64, apps: [Candidate])] = [:]
    }

    private let files = Protected(Files())
    /// Set once built: until then `update` returns at once, without the lock.
    private let built = Atomic<Bool>(false)
    private let allDevices: @Sendable () -> [DeviceHost]

    package init(devices: @escaping @Sendable () -> [DeviceHost]) {
        allDevices = devices
    }

    /// `host` published a change to `apps` (changed or added) and `removedApp`: files them as they are now.
    package func update(_ host: DeviceHost, apps: Set<String>, removedApp: String?) {
        guard built.load(ordering: .acquiring), !apps.isEmpty || removedApp != nil else { return }
        files.withLock { files in
            guard files.built else { return }
            host.shared.withLock { shared in
                let realtime = shared.device.configuration.clockMode == .realtime
                for id in apps {
                    let state = shared.gone ? nil : shared.device.state(of: id)
                    file(id, host: host, state: state, realtime: realtime, &files)
                }
                if let removedApp { file(removedApp, host: host, state: nil, realtime: realtime, &files) }
            }
        }
    }

    /// `host` went with `apps` (deleted).
    package func remove(_ host: DeviceHost, apps: [String]) {
        guard built.load(ordering: .acquiring) else { return }
        files.withLock { files in
            for id in apps { file(id, host: host, state: nil, realtime: false, &files) }
        }
    }

    /// Forgets everything (a reset of the namespace); the next listing builds the index again.
    package func clear() {
        files.withLock { files in
            files = Files()
            built.store(false, ordering: .releasing)
        }
    }

    /// The apps that may be in `state`, sorted by id: those filed under it and those of realtime devices.
    package func candidates(in state: AppState) -> [Candidate] {
        files.withLock { files in
            if !files.built { build(&files) }
            let filed = sortedApps(state, &files)
            let realtime = sortedApps(nil, &files)
            guard !realtime.isEmpty else { return filed }
            return Self.merged(filed, realtime)
        }
    }

    private func build(_ files: inout Files) {
        // Set first: a change published after this is filed by `update`; one published before is read here.
        built.store(true, ordering: .sequentiallyConsistent)
        files.built = true
        for host in allDevices() {
            host.shared.withLock { shared in
                guard !shared.gone else { return }
                let realtime = shared.device.configuration.clockMode == .realtime
                for id in shared.device.appOrder {
                    file(id, host: host, state: shared.device.state(of: id), realtime: realtime, &files)
                }
            }
        }
    }

    /// Files `id` under `state` (nil: nowhere), or among the realtime apps.
    private func file(_ id: String, host: DeviceHost, state: AppState?, realtime: Bool, _ files: inout Files) {
        if let old = files.stateOf.removeValue(forKey: id) {
            files.byState[old]?[id] = nil
            files.versions[old, default: 0] += 1
        }
        if files.realtime.removeValue(forKey: id) != nil { files.versions[nil, default: 0] += 1 }
        guard let state else { return }
        if realtime {
            files.realtime[id] = host
            files.versions[nil, default: 0] += 1
        } else {
            files.stateOf[id] = state
            files.byState[state, default: [:]][id] = host
            files.versions[state, default: 0] += 1
        }
    }

    /// The apps filed under `state` (nil: the realtime apps) sorted by id, sorted again only after a change.
    private func sortedApps(_ state: AppState?, _ files: inout Files) -> [Candidate] {
        let version = files.versions[state, default: 0]
        if let cached = files.sorted[state], cached.version == version { return cached.apps }
        let apps = (state.map { files.byState[$0] ?? [:] } ?? files.realtime).map { (id: $0.key, host: $0.value) }
            .sorted { $0.id < $1.id }
        files.sorted[state] = (version, apps)
        return apps
    }

    private static func merged(_ a: [Candidate], _ b: [Candidate]) -> [Candidate] {
        var result: [Candidate] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i].id < b[j].id {
                result.append(a[i])
                i += 1
            } else {
                result.append(b[j])
                j += 1
            }
        }
        result += a[i...]
        result += b[j...]
        return result
    }
}
