import LifecycleCore

/// Timeline entries as JSON, written once when they are produced and served from then on.
enum EntryEncoder {
    static func encode(_ entry: TimelineEntry) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 192)
        w.beginObject()
        w.key("seq")
        w.int(Int(entry.seq))
        w.key("time")
        w.number(entry.time)
        w.key("app")
        if let app = entry.app { w.string(app) } else { w.null() }
        w.key("kind")
        w.string(entry.kind)
        switch entry.body {
        case .callback(let selector, let state, let args, let duration):
            w.key("selector")
            w.string(selector)
            w.key("state")
            w.string(state.rawValue)
            w.key("args")
            w.value(.object(args))
            w.key("duration")
            w.number(duration)
        case .notification(let name, let userInfo, let queuedAt, let coalesced):
            w.key("name")
            w.string(name)
            w.key("userInfo")
            w.value(.object(userInfo))
            if let queuedAt {
                w.key("queuedAt")
                w.number(queuedAt)
            }
            if let coalesced {
                w.key("coalesced")
                w.int(coalesced)
            }
        case .state(let from, let to):
            w.key("from")
            w.string(from.rawValue)
            w.key("to")
            w.string(to.rawValue)
        case .termination(let reason, let notified, let code):
            w.key("reason")
            w.string(reason.rawValue)
            w.key("notified")
            w.bool(notified)
            if let code {
                w.key("code")
                w.string(code)
            }
        case .runLoop(let event, let delivered, let coalesced):
            w.key("event")
            w.string(event.rawValue)
            w.key("delivered")
            w.bool(delivered)
            if let coalesced {
                w.key("coalesced")
                w.int(coalesced)
            }
        case .device(let event, let detail):
            w.key("event")
            w.string(event)
            w.key("detail")
            w.value(.object(detail))
        case .backgroundTask(let event, let task, let name):
            w.key("event")
            w.string(event.rawValue)
            w.key("task")
            w.int(task)
            w.key("name")
            if let name { w.string(name) } else { w.null() }
        }
        w.endObject()
        return w.bytes
    }
}
