package import LifecycleCore
package import LifecycleJSON

/// Timeline entries as JSON, written once when they are produced and served from then on.
package enum EntryEncoder {
    package static func write(_ entry: TimelineEntry, into w: inout JSONWriter) {
        w.beginObject()
        w.field("seq")
        w.int(Int(entry.seq))
        w.field("time")
        w.number(entry.time)
        w.field("app")
        if let app = entry.app { w.string(app) } else { w.null() }
        w.field("kind")
        w.string(entry.kind)
        if let session = entry.session {
            w.field("session")
            w.string(session)
        }
        switch entry.body {
        case .callback(let selector, let state, let args, let duration):
            w.field("selector")
            w.string(selector)
            w.field("state")
            w.string(state.rawValue)
            if let sceneState = entry.sceneState {
                w.field("sceneState")
                w.string(sceneState.rawValue)
            }
            w.field("args")
            w.value(.object(args))
            w.field("duration")
            w.number(duration)
        case .notification(let name, let userInfo, let queuedAt, let coalesced):
            w.field("name")
            w.string(name)
            w.field("userInfo")
            w.value(.object(userInfo))
            if let queuedAt {
                w.field("queuedAt")
                w.number(queuedAt)
            }
            if let coalesced {
                w.field("coalesced")
                w.int(coalesced)
            }
        case .state(let from, let to):
            w.field("from")
            w.string(from.rawValue)
            w.field("to")
            w.string(to.rawValue)
        case .termination(let reason, let notified, let foreground):
            w.field("reason")
            w.string(reason.rawValue)
            w.field("notified")
            w.bool(notified)
            TerminationFields.write(reason, foreground: foreground, into: &w)
        case .runLoop(let event, let delivered, let coalesced):
            w.field("event")
            w.string(event.rawValue)
            w.field("delivered")
            w.bool(delivered)
            if let coalesced {
                w.field("coalesced")
                w.int(coalesced)
            }
        case .device(let event, let detail):
            w.field("event")
            w.string(event)
            w.field("detail")
            w.value(.object(detail))
        case .sceneState(let from, let to):
            w.field("from")
            w.string(from.rawValue)
            w.field("to")
            w.string(to.rawValue)
        case .backgroundTask(let event, let task, let name):
            w.field("event")
            w.string(event.rawValue)
            w.field("task")
            w.int(task)
            w.field("name")
            if let name { w.string(name) } else { w.null() }
        case .resource(let resource, let event):
            w.field("resource")
            w.string(resource.rawValue)
            w.field("event")
            w.string(event.rawValue)
        case .snapshot(let visible, let hidden):
            w.field("visible")
            w.value(.array(visible.map(JSONValue.string)))
            w.field("hidden")
            w.value(.array(hidden.map(JSONValue.string)))
        case .launchImage(let image):
            w.field("image")
            w.string(image)
        case .wakeRefused(let wake, let reason):
            w.field("wake")
            w.string(wake.rawValue)
            w.field("reason")
            w.string(reason.rawValue)
        case .transfer(let event, let session, let task, let name):
            w.field("event")
            w.string(event.rawValue)
            // `session` is a scene session's, in every entry that has one.
            w.field("urlSession")
            w.string(session)
            w.field("task")
            w.string(task.rawValue)
            w.field("name")
            w.string(name)
        case .scheduledTask(let event, let identifier, let kind, let reason, let progress):
            w.field("event")
            w.string(event.rawValue)
            w.field("identifier")
            w.string(identifier)
            w.field("taskKind")
            w.string(kind.rawValue)
            if let reason {
                w.field("reason")
                w.string(reason.rawValue)
            }
            if let progress {
                w.field("progress")
                w.number(progress)
            }
        }
        w.endObject()
    }
}
