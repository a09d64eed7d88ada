/// What an app does inside its callbacks, and what the system does about it (LIFECYCLE §6;
/// seed 000 §3.3 and seed 000 §3.5).
extension Device {
    /// Runs the delegate's actions for `selector` (`listed`: a live delegate's, nil: the script's), as the
    /// callback starts; false when one of them ended the app (the caller stops: no duration, no notification).
    /// Callers skip it for scripted delegates without actions, which cost every callback nothing then.
    mutating func performActions(_ id: String, inside selector: String, _ listed: [CallbackAction]? = nil) -> Bool {
        let actions = listed ?? apps[existing: id].delegate.actions(inside: selector)
        guard !actions.isEmpty else { return true }
        for action in actions {
            switch action {
            case .beginBackgroundTask(let name, let duration):
                // Seed 000 §3.5: applicationWillTerminate: cannot ask for more time.
                let granted: Bool
                if selector == Selector.willTerminate {
                    granted = false
                } else {
                    do {
                        try beginBackgroundTask(id, name: name, duration: duration)
                        granted = true
                    } catch {
                        granted = false
                    }
                }
                if !granted { record(id, .backgroundTask(event: .refused, task: 0, name: name)) }
            case .useGPU:
                // Seed 000 §3.3 (1): OpenGL ES in the background gets the app killed at once.
                guard apps[existing: id].state == .background else { continue }
                end(id, .gpuInBackground, notified: false)
                return false
            case .acquire(let resource):
                var held = Set(apps[existing: id].resources)
                guard held.insert(resource).inserted else { continue }
                apps[existing: id].heldResources = AppResource.allCases.filter(held.contains)
                record(id, .resource(resource: resource, event: .acquired))
            case .release(let resource):
                guard apps[existing: id].resources.contains(resource) else { continue }
                let left = apps[existing: id].resources.filter { $0 != resource }
                apps[existing: id].heldResources = left.isEmpty ? nil : left
                record(id, .resource(resource: resource, event: .released))
            case .hideViews(let views):
                setHidden(id, views, hidden: true)
            case .showViews(let views):
                setHidden(id, views, hidden: false)
            case .showAlert(let style, let title):
                var shown = apps[existing: id].alerts
                guard shown.count < ShownAlert.limit else { continue }
                shown.append(ShownAlert(style: style, title: title, shownAt: time))
                apps[existing: id].shownAlerts = shown
            case .dismissAlerts:
                apps[existing: id].shownAlerts = nil
            case .endBackgroundTask(let task):
                // A task already ended (or never begun) is nothing to end, as UIKit ignores it.
                guard apps[existing: id].backgroundTasks.contains(where: { $0.id == task }) else { continue }
                try? endBackgroundTask(id, task: task)
            case .startBackgroundTransfer(let session, let task, let name):
                startTransfer(id, session: session, task: task, name: name)
            case .submitTask(let request):
                submitTask(id, request, inside: selector)
            case .cancelTaskRequest(let identifier):
                cancelTaskRequest(id, identifier: identifier)
            case .reportProgress(let fraction):
                reportProgress(id, fraction: fraction)
            }
        }
        return true
    }

    /// Hides or shows the named sensitive views (nil: every one), keeping `hiddenViews` in declared order.
    private mutating func setHidden(_ id: String, _ views: [String]?, hidden: Bool) {
        let declared = apps[existing: id].configuration.sensitiveViews ?? []
        var set = Set(apps[existing: id].hiddenViews ?? [])
        for view in views ?? declared {
            if hidden { set.insert(view) } else { set.remove(view) }
        }
        let ordered = declared.filter(set.contains)
        apps[existing: id].hiddenViews = ordered.isEmpty ? nil : ordered
    }

    /// The system snapshots the app's UI as its background callback returns (seed 000 §3.3 (1), (10)):
    /// recorded for apps that declare sensitive views, with the ones that showed.
    mutating func takeSnapshot(_ id: String, session: String? = nil) {
        guard let declared = apps[existing: id].configuration.sensitiveViews else { return }
        let hidden = apps[existing: id].hiddenViews ?? []
        record(id, .snapshot(visible: declared.filter { !hidden.contains($0) }, hidden: hidden), session: session)
    }

    /// The app has just been suspended: the system closes its Bonjour services and listening sockets
    /// (seed 000 §3.3 (2), (3)); one still using the Address Book or Calendar is killed (seed 000 §3.3 (6)), and
    /// so is one still holding a file lock, `0xdead10cc` (LIFECYCLE §9.1).
    mutating func releaseAtSuspension(_ id: String) {
        let held = apps[existing: id].resources
        guard !held.isEmpty else { return }
        for resource in held where resource.suspensionKill == nil {
            record(id, .resource(resource: resource, event: .closedBySystem))
        }
        let kept = held.filter { $0.suspensionKill != nil }
        apps[existing: id].heldResources = kept.isEmpty ? nil : kept
        if let reason = kept.first?.suspensionKill { end(id, reason, notified: false) }
    }

    /// An app linked before 4.0 quits: the system cancels its alerts and action sheets, the newest first, so
    /// their cancel handlers run (seed 000 §3.3 (9)): `alertViewCancel:` or `actionSheetCancel:`, or, when the
    /// delegate lacks it, a tap on the cancel button. Returns false when an action ended the app.
    mutating func cancelAlertsAtQuit(_ id: String) -> Bool {
        guard capabilities(of: id).cancelsAlertsAtQuit, let shown = apps[existing: id].shownAlerts else { return true }
        apps[existing: id].shownAlerts = nil
        for alert in shown.reversed() {
            var args: [String: JSONValue] = alert.title.map { ["title": .string($0)] } ?? [:]
            var selector = alert.style.cancelSelector
            if !implements(id, selector, args: args) {
                selector = alert.style.clickedSelector
                args["cancelButton"] = .bool(true)
            }
            guard invoke(id, selector, args: args) != nil else { return false }
        }
        return true
    }
}
