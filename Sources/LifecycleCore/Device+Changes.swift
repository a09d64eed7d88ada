/// Device changes as notifications, and the coalesced queue of a suspended app (LIFECYCLE §7).
extension Device {
    mutating func change(_ kind: ChangeKind, value: JSONValue?) {
        if kind == .backgroundAppRefresh || kind == .lowPowerMode, let value {
            changeWakeSetting(kind, value: value)  // the wake policy's settings (LIFECYCLE §6)
            return
        }
        let previous = settings[kind.rawValue]
        if kind.hasValue, let value {
            guard value != previous else { return }  // no change, no notification
            settings[kind.rawValue] = value
        }
        let name = kind.notificationName(for: value)
        var userInfo: [String: JSONValue] = [:]
        if let value { userInfo["value"] = value }
        if kind == .statusBarFrame {
            statusBarFrameChange(userInfo)
            return
        }
        for id in appOrder {
            if kind == .accessory, !hearsOfAccessories(id) { continue }
            switch apps[existing: id].state {
            case .inactive, .active, .background:
                if kind == .significantTime {
                    invoke(id, Selector.significantTimeChange)
                } else {
                    post(id, name, userInfo)
                }
            case .suspended:
                enqueue(
                    id, kind: kind.rawValue, name: name, userInfo: userInfo, value: kind.hasValue ? value : nil,
                    previous: previous)
            case .notRunning:
                continue
            }
        }
    }

    /// Only the foreground app hears of the status bar, and nothing is queued; it keeps the height it heard (§5).
    mutating func statusBarFrameChange(_ userInfo: [String: JSONValue]) {
        guard let front = foregroundApp else { return }
        if case .number(let height)? = userInfo["value"]?["height"] {
            apps[existing: front].heardStatusBarHeight = height
        }
        invoke(front, Selector.willChangeStatusBarFrame, args: userInfo)
        invoke(front, Selector.didChangeStatusBarFrame, args: userInfo)
    }

    /// Queues a notification for a suspended app: one per kind, reflecting the net change since the
    /// first one; a change back to where it started leaves nothing. `value` nil: a moment, always counted.
    mutating func enqueue(
        _ id: String, kind: String, name: String, userInfo: [String: JSONValue], value: JSONValue?,
        previous: JSONValue?
    ) {
        var queue = apps[existing: id].queuedNotifications
        if let index = queue.firstIndex(where: { $0.kind == kind }) {
            if value != nil, value == queue[index].baseline {
                queue.remove(at: index)
            } else {
                queue[index].name = name
                queue[index].userInfo = userInfo
                queue[index].coalesced += 1
            }
        } else {
            queue.append(
                QueuedNotification(
                    kind: kind, name: name, userInfo: userInfo, queuedAt: time, coalesced: 1,
                    baseline: value == nil ? nil : previous))
        }
        apps[existing: id].queuedNotifications = queue
    }
}
