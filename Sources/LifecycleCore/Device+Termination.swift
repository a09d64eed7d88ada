/// Ends of an app, and memory (LIFECYCLE §9).
extension Device {
    mutating func terminateEvent(_ id: String) {
        switch apps[existing: id].state {
        case .inactive, .active, .background:
            terminateRunning(id, .terminated)
        case .suspended:
            end(id, .terminated, notified: false)
        case .notRunning:
            return
        }
    }

    /// The app switcher's swipe: no callback, but an active app first resigns active.
    mutating func forceQuit(_ id: String) {
        // The wake policy (LIFECYCLE §6), once the app has passed through inactive on its way out.
        let continued = continuedTasks(of: id)
        defer {
            stopWakesAfterForceQuit(id)
            cancelTransfersAfterForceQuit(id)
            recordSwitcherCancels(id, continued)
        }
        if usesScenes(id) {
            forceQuitScenes(id)
            return
        }
        // Swiping the app away discards its preserved state, even once it is not running (LIFECYCLE §4).
        if apps[existing: id].preservedState != nil {
            apps[existing: id].preservedState = nil
            quietChange = true
        }
        switch apps[existing: id].state {
        case .active:
            invoke(id, Selector.willResignActive)
            setState(id, .inactive)
            end(id, .forceQuit, notified: false)
        case .inactive, .background, .suspended:
            end(id, .forceQuit, notified: false)
        case .notRunning:
            return
        }
    }

    mutating func crash(_ id: String) {
        guard apps[existing: id].state != .notRunning else { return }
        end(id, .crash, notified: false)
    }

    mutating func reboot() {
        for id in appOrder where apps[existing: id].state != .notRunning {
            end(id, .reboot, notified: false)
        }
        // A restart lets the system wake apps the user force-quit again (LIFECYCLE §6, the wake policy).
        for id in appOrder where apps[existing: id].stoppedByForceQuit != nil {
            apps[existing: id].stoppedByForceQuit = nil
        }
        locked = false
        interruption = nil
        notificationCenterOpen = false
        appSwitcherShown = nil
        callSince = nil
        foregroundApp = nil
        appBeforeLock = nil
        // Data protection keeps protected data unreadable until the passcode is entered once (§12.2).
        firstUnlockPending = configuration.passcode && configuration.iosVersion >= Version(4, 0) ? true : nil
    }

    mutating func memoryWarning(_ id: String) throws(Rejection) {
        let state = apps[existing: id].state
        guard state.isRunning else {
            throw .transition(
                "only a running app gets a memory warning", state: state,
                allowed: AppState.allCases.filter(\.isRunning).map(\.rawValue))
        }
        invoke(id, Selector.didReceiveMemoryWarning)
    }

    mutating func memoryPressure(_ level: MemoryPressureLevel) {
        if level == .critical {
            for id in largestFirst(in: .suspended) { end(id, .memoryPressure, notified: false) }
            if let largest = largestFirst(in: .background).first { terminateRunning(largest, .memoryPressure) }
        }
        for id in appOrder where apps[existing: id].state.isRunning {
            invoke(id, Selector.didReceiveMemoryWarning)
        }
    }

    /// Makes room for `id` to launch: purges suspended apps, then terminates background ones, largest first.
    mutating func ensureMemory(for id: String) throws(Rejection) {
        let needed = apps[existing: id].configuration.memoryMB
        func fits(_ device: Device) -> Bool { device.memoryInUseMB + needed <= device.configuration.memoryMB }
        if fits(self) { return }
        // The app this launch sent to the background suspends first when nothing keeps it running (§9).
        suspendDueApps()
        for other in largestFirst(in: .suspended) where other != id && !fits(self) {
            end(other, .memoryPressure, notified: false)
        }
        for other in largestFirst(in: .background) where other != id && !fits(self) {
            terminateRunning(other, .memoryPressure)
        }
        guard fits(self) else {
            throw .transition(
                "not enough memory: the app needs \(needed) MB, \(configuration.memoryMB - memoryInUseMB) MB are free "
                    + "after purging every background app (device memoryMB \(configuration.memoryMB))",
                state: apps[existing: id].state)
        }
    }

    /// The iOS 27 gate (LIFECYCLE §11.1): records the failed launch and answers true when the app cannot launch.
    /// `foreground`: whether the launch was to the foreground.
    mutating func failsToLaunch(_ id: String, foreground: Bool = true) -> Bool {
        guard capabilities(of: id).sceneLifecycleRequired else { return false }
        recordTermination(id, .sceneLifecycleRequired, notified: false, foreground: foreground)
        return true
    }

    /// Apps in `state`, largest memory first; ties in the order they were added.
    func largestFirst(in state: AppState) -> [String] {
        appOrder.filter { apps[$0]!.state == state }
            .enumerated()
            .sorted { lhs, rhs in
                let (l, r) = (
                    apps[existing: lhs.element].configuration.memoryMB,
                    apps[existing: rhs.element].configuration.memoryMB
                )
                return l != r ? l > r : lhs.offset < rhs.offset
            }
            .map(\.element)
    }
}
