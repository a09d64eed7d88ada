import LifecycleCore

/// Version-2 records of events and clock advances, written by hand: one per accepted POST, where
/// `JSONEncoder` cost more than the events themselves. The text is what the synthesized `Codable`
/// conformances read (`{"<case>":{"<label>":value,...}}`, nil members left out, an unlabeled value as
/// `_0`), so `JournalRecordFormat.decode` reads these records and `JSONEncoder`'s alike.
enum JournalRecordWriter {
    /// The record of `entry`, or nil for the kinds written through `Codable` (devices and apps: rare).
    static func record(_ entry: JournalEntry, prefix: [UInt8]) -> [UInt8]? {
        var w: JSONWriter
        switch entry {
        case .events(let app, let now, let events, let key, let fingerprint):
            w = JSONWriter(appendingTo: prefix, reservingCapacity: 96 + events.count * 48)
            w.beginObject()
            w.field("events")
            w.beginObject()
            if let app { member("app", app, &w) }
            w.field("now")
            w.number(now)
            w.field("events")
            w.beginArray()
            for event in events { write(event, into: &w) }
            w.endArray()
            if let key { member("key", key, &w) }
            if let fingerprint {
                w.field("fingerprint")
                w.unsigned(fingerprint)
            }
            w.endObject()
            w.endObject()
        case .advance(let now):
            w = JSONWriter(appendingTo: prefix, reservingCapacity: 48)
            w.beginObject()
            w.field("advance")
            w.beginObject()
            w.field("now")
            w.number(now)
            w.endObject()
            w.endObject()
        case .device, .app, .deleteApp:
            return nil
        }
        w.endObject()  // closes the prefix's `{"v":2,"entry":`
        return w.bytes
    }

    private static func write(_ event: Event, into w: inout JSONWriter) {
        w.beginObject()
        switch event {
        case .launch(let background, let url, let sourceApplication):
            open("launch", &w)
            member("background", background, &w)
            member("url", url, &w)
            member("sourceApplication", sourceApplication, &w)
        case .activate(let session):
            open("activate", &w)
            member("session", session, &w)
        case .openURL(let url, let sourceApplication, let annotation, let session):
            open("openURL", &w)
            member("url", url, &w)
            member("sourceApplication", sourceApplication, &w)
            if let annotation {
                w.field("annotation")
                w.value(annotation)
            }
            member("session", session, &w)
        case .terminate: open("terminate", &w)
        case .forceQuit: open("forceQuit", &w)
        case .crash: open("crash", &w)
        case .beginBackgroundTask(let name, let duration):
            open("beginBackgroundTask", &w)
            member("name", name, &w)
            if let duration {
                w.field("duration")
                w.number(duration)
            }
        case .endBackgroundTask(let task):
            open("endBackgroundTask", &w)
            w.field("task")
            w.int(task)
        case .startBackgroundActivity(let mode):
            open("startBackgroundActivity", &w)
            member("mode", mode, &w)
        case .stopBackgroundActivity(let mode):
            open("stopBackgroundActivity", &w)
            member("mode", mode, &w)
        case .remoteNotification(let payload, let contentAvailable):
            open("remoteNotification", &w)
            if let payload {
                w.field("payload")
                w.value(payload)
            }
            member("contentAvailable", contentAvailable, &w)
        case .backgroundFetch: open("backgroundFetch", &w)
        case .memoryWarning: open("memoryWarning", &w)
        case .runLoop(let input):
            open("runLoop", &w)
            member("_0", input.rawValue, &w)
        case .openScene(let session, let url, let sourceApplication, let placement):
            open("openScene", &w)
            member("session", session, &w)
            member("url", url, &w)
            member("sourceApplication", sourceApplication, &w)
            member("placement", placement.rawValue, &w)
        case .closeScene(let session):
            open("closeScene", &w)
            member("session", session, &w)
        case .disconnectScene(let session):
            open("disconnectScene", &w)
            member("session", session, &w)
        case .moveTo(let state):
            open("moveTo", &w)
            member("state", state.rawValue, &w)
        case .homeButton: open("homeButton", &w)
        case .switchApp(let target):
            open("switchApp", &w)
            member("to", target, &w)
        case .lock: open("lock", &w)
        case .unlock: open("unlock", &w)
        case .interruptionBegan(let kind):
            open("interruptionBegan", &w)
            member("kind", kind.rawValue, &w)
        case .interruptionEnded(let accepted):
            open("interruptionEnded", &w)
            member("accepted", accepted, &w)
        case .bannerNotification(let title):
            open("bannerNotification", &w)
            member("title", title, &w)
        case .notificationCenterOpened: open("notificationCenterOpened", &w)
        case .notificationCenterClosed: open("notificationCenterClosed", &w)
        case .memoryPressure(let level):
            open("memoryPressure", &w)
            member("level", level.rawValue, &w)
        case .reboot: open("reboot", &w)
        case .advanceTime(let seconds):
            open("advanceTime", &w)
            w.field("seconds")
            w.number(seconds)
        case .change(let kind, let value):
            open("change", &w)
            member("kind", kind.rawValue, &w)
            if let value {
                w.field("value")
                w.value(value)
            }
        }
        w.endObject()  // the case's members
        w.endObject()
    }

    /// `"<case>":{`: the members that follow are the case's associated values.
    private static func open(_ name: StaticString, _ w: inout JSONWriter) {
        w.field(name)
        w.beginObject()
    }

    private static func member(_ name: StaticString, _ value: String?, _ w: inout JSONWriter) {
        guard let value else { return }
        w.field(name)
        w.string(value)
    }

    private static func member(_ name: StaticString, _ value: Bool, _ w: inout JSONWriter) {
        w.field(name)
        w.bool(value)
    }
}
