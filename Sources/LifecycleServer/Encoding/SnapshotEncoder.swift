import LifecycleCore

/// Device and app snapshots as the API shows them.
enum SnapshotEncoder {
    static func app(_ app: AppInstance, on device: Device, into w: inout JSONWriter) {
        w.beginObject()
        w.key("id")
        w.string(app.id)
        w.key("device")
        w.string(device.id)
        w.key("bundleId")
        w.string(app.configuration.bundleId)
        w.key("iosVersion")
        w.string(app.iosVersion.description)
        w.key("state")
        w.string(app.state.rawValue)
        w.key("stateSince")
        w.number(app.stateSince)
        w.key("lastSeq")
        w.int(Int(app.lastSeq))
        w.key("pendingNotifications")
        w.int(app.queuedNotifications.count)
        w.key("backgroundTasks")
        w.beginArray()
        for task in app.backgroundTasks {
            w.beginObject()
            w.key("id")
            w.int(task.id)
            w.key("name")
            if let name = task.name { w.string(name) } else { w.null() }
            w.key("began")
            w.number(task.began)
            w.key("endsAt")
            if let endsAt = task.endsAt { w.number(endsAt) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.key("backgroundTimeRemaining")
        if let remaining = device.backgroundTimeRemaining(of: app) { w.number(remaining) } else { w.null() }
        w.key("backgroundActivities")
        w.beginArray()
        for mode in app.backgroundActivities { w.string(mode) }
        w.endArray()
        w.key("pendingRedraws")
        w.int(app.pendingRedraws)
        w.key("protectedDataAvailable")
        w.bool(device.protectedDataAvailable)
        w.key("termination")
        if let termination = app.termination {
            w.beginObject()
            w.key("reason")
            w.string(termination.reason.rawValue)
            w.key("time")
            w.number(termination.time)
            w.key("notified")
            w.bool(termination.notified)
            if let code = termination.code {
                w.key("code")
                w.string(code)
            }
            w.endObject()
        } else {
            w.null()
        }
        let info = app.configuration.info
        w.key("info")
        w.beginObject()
        w.key("exitsOnSuspend")
        w.bool(info.exitsOnSuspend)
        w.key("backgroundModes")
        w.value(.array(info.backgroundModes.map(JSONValue.string)))
        w.key("urlSchemes")
        w.value(.array(info.urlSchemes.map(JSONValue.string)))
        w.endObject()
        let delegate = app.configuration.delegate
        w.key("delegate")
        w.beginObject()
        w.key("notImplemented")
        w.value(.array(delegate.notImplemented.sorted().map(JSONValue.string)))
        w.key("durations")
        w.value(.object(delegate.durations.mapValues(JSONValue.number)))
        w.key("returns")
        w.value(.object(delegate.returns.mapValues(JSONValue.bool)))
        w.key("endsTasksOnExpiration")
        w.bool(delegate.endsTasksOnExpiration)
        w.endObject()
        w.key("memoryMB")
        w.int(app.configuration.memoryMB)
        w.endObject()
    }

    static func device(_ device: Device, into w: inout JSONWriter) {
        let configuration = device.configuration
        w.beginObject()
        w.key("id")
        w.string(device.id)
        w.key("iosVersion")
        w.string(configuration.iosVersion.description)
        w.key("multitasking")
        w.bool(configuration.multitasking)
        w.key("passcode")
        w.bool(configuration.passcode)
        w.key("memoryMB")
        w.int(configuration.memoryMB)
        w.key("clock")
        w.beginObject()
        w.key("mode")
        w.string(configuration.clockMode.rawValue)
        w.key("speed")
        w.number(configuration.clockSpeed)
        w.endObject()
        w.key("suspendDelay")
        w.number(configuration.suspendDelay)
        w.key("settings")
        w.value(.object(device.settings))
        w.key("time")
        w.number(device.time)
        w.key("locked")
        w.bool(device.locked)
        w.key("foregroundApp")
        if let front = device.foregroundApp { w.string(front) } else { w.null() }
        w.key("interruption")
        if let interruption = device.interruption { w.string(interruption.rawValue) } else { w.null() }
        w.key("notificationCenterOpen")
        w.bool(device.notificationCenterOpen)
        w.key("memoryInUseMB")
        w.int(device.memoryInUseMB)
        w.key("apps")
        w.beginArray()
        for id in device.appOrder { w.string(id) }
        w.endArray()
        w.key("lastSeq")
        w.int(Int(device.lastSeq))
        w.endObject()
    }
}
