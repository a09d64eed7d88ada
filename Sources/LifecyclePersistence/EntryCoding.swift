package import LifecycleCore
import LifecycleJSON

/// A timeline entry in the form timelines retain it and snapshots store it: the core's value, compact.
/// `seq`, `app` and `session` are kept beside the bytes (`RetainedEntry`); the bytes hold the kind (one
/// byte), the time, then the kind's members in the order `TimelineEntry.Body` declares them. Strings and
/// the core's enumerations are UTF-8 after a varint length (enumerations by their raw values, so adding a
/// case changes no stored byte); optionals a byte 0 or 1 before the value; integers zigzag varints;
/// numbers 8 bytes; JSON values a tag and their contents. The snapshot's version covers this layout.
package enum EntryCoding {
    /// The first byte: the entry's kind.
    package enum Kind: UInt8 {
        case callback, notification, state, termination, runLoop, device, backgroundTask, sceneState, resource,
            snapshot, launchImage, wakeRefused
        /// A termination that says whether the app was in front: `termination`'s members, then that flag.
        /// (`termination` alone is one recorded before it was kept.)
        case terminationInFront
        /// A BGTaskScheduler request or task (LIFECYCLE §15).
        case scheduledTask
        /// Background transfers (LIFECYCLE §14); 14 to 19 are free.
        case transfer = 20
    }

    /// Appends the entry's bytes to `w`.
    package static func encode(_ entry: TimelineEntry, into w: inout ByteWriter) {
        func choice<Choice: RawRepresentable<String>>(_ value: Choice) { w.string(value.rawValue) }
        func optional<Value>(_ value: Value?, _ write: (Value) -> Void) {
            w.byte(value == nil ? 0 : 1)
            if let value { write(value) }
        }
        func object(_ members: [String: JSONValue]) { json(.object(members), into: &w) }
        switch entry.body {
        case .callback(let selector, let state, let args, let duration):
            start(.callback, entry.time, &w)
            w.string(selector)
            choice(state)
            object(args)
            w.double(duration)
            optional(entry.sceneState) { choice($0) }
        case .notification(let name, let userInfo, let queuedAt, let coalesced):
            start(.notification, entry.time, &w)
            w.string(name)
            object(userInfo)
            optional(queuedAt) { w.double($0) }
            optional(coalesced) { w.integer($0) }
        case .state(let from, let to):
            start(.state, entry.time, &w)
            choice(from)
            choice(to)
        case .termination(let reason, let notified, let foreground):
            // The code's slot holds the reason's code, as it always did.
            start(foreground == nil ? .termination : .terminationInFront, entry.time, &w)
            choice(reason)
            w.byte(notified ? 1 : 0)
            optional(reason.kind.code) { w.string($0) }
            if let foreground { w.byte(foreground ? 1 : 0) }
        case .runLoop(let event, let delivered, let coalesced):
            start(.runLoop, entry.time, &w)
            choice(event)
            w.byte(delivered ? 1 : 0)
            optional(coalesced) { w.integer($0) }
        case .device(let event, let detail):
            start(.device, entry.time, &w)
            w.string(event)
            object(detail)
        case .backgroundTask(let event, let task, let name):
            start(.backgroundTask, entry.time, &w)
            choice(event)
            w.integer(task)
            optional(name) { w.string($0) }
        case .sceneState(let from, let to):
            start(.sceneState, entry.time, &w)
            choice(from)
            choice(to)
        case .resource(let resource, let event):
            start(.resource, entry.time, &w)
            choice(resource)
            choice(event)
        case .snapshot(let visible, let hidden):
            start(.snapshot, entry.time, &w)
            json(.array(visible.map(JSONValue.string)), into: &w)
            json(.array(hidden.map(JSONValue.string)), into: &w)
        case .launchImage(let image):
            start(.launchImage, entry.time, &w)
            w.string(image)
        case .wakeRefused(let wake, let reason):
            start(.wakeRefused, entry.time, &w)
            choice(wake)
            choice(reason)
        case .transfer(let event, let session, let task, let name):
            start(.transfer, entry.time, &w)
            choice(event)
            w.string(session)
            choice(task)
            w.string(name)
        case .scheduledTask(let event, let identifier, let kind, let reason, let progress):
            start(.scheduledTask, entry.time, &w)
            choice(event)
            w.string(identifier)
            choice(kind)
            optional(reason) { choice($0) }
            optional(progress) { w.double($0) }
        }
    }

    /// The entry `bytes` hold (what `encode` wrote), with what is kept beside them.
    package static func decode(_ bytes: [UInt8], seq: UInt64, app: String?, session: String?) throws -> TimelineEntry {
        try decode(of: bytes, seq: seq, app: app, session: session)
    }

    /// The same from memory lent for the read (a retained entry's bytes).
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, seq: UInt64, app: String?, session: String?
    ) throws -> TimelineEntry {
        try decode(of: bytes, seq: seq, app: app, session: session)
    }

    private static func decode<Bytes: RandomAccessCollection<UInt8>>(
        of bytes: Bytes, seq: UInt64, app: String?, session: String?
    ) throws -> TimelineEntry where Bytes.Index == Int {
        var r = ByteReader(bytes)
        guard let kind = Kind(rawValue: try r.byte()) else { throw CorruptRecord() }
        let time = try r.double()
        // Matched by its bytes against the few raw values: no string is made, no string switch runs.
        func choice<Choice: RawRepresentable<String> & CaseIterable>(_: Choice.Type = Choice.self) throws -> Choice {
            let text = try r.utf8()
            guard let value = Choice.allCases.first(where: { $0.rawValue.utf8.elementsEqual(text) }) else {
                throw CorruptRecord()
            }
            return value
        }
        func optional<Value>(_ read: () throws -> Value) throws -> Value? {
            switch try r.byte() {
            case 0: return nil
            case 1: return try read()
            default: throw CorruptRecord()
            }
        }
        func flag() throws -> Bool { try optional { true } ?? false }
        func object() throws -> [String: JSONValue] {
            guard case .object(let members) = try json(&r, depth: 0) else { throw CorruptRecord() }
            return members
        }
        func strings() throws -> [String] {
            guard case .array(let items) = try json(&r, depth: 0) else { throw CorruptRecord() }
            return try items.map { item in
                guard let text = item.stringValue else { throw CorruptRecord() }
                return text
            }
        }
        var sceneState: SceneState?
        let body: TimelineEntry.Body
        switch kind {
        case .callback:
            body = .callback(
                selector: try r.string(), state: try choice(), args: try object(), duration: try r.double())
            sceneState = try optional { try choice() }
        case .notification:
            body = .notification(
                name: try r.string(), userInfo: try object(), queuedAt: try optional { try r.double() },
                coalesced: try optional { try r.integer() })
        case .state:
            body = .state(from: try choice(), to: try choice())
        case .termination, .terminationInFront:
            let reason: TerminationReason = try choice()
            let notified = try flag()
            _ = try optional { try r.string() }  // the code, which is the reason's
            body = .termination(
                reason: reason, notified: notified, foreground: kind == .terminationInFront ? try flag() : nil)
        case .runLoop:
            body = .runLoop(event: try choice(), delivered: try flag(), coalesced: try optional { try r.integer() })
        case .device:
            body = .device(event: try r.string(), detail: try object())
        case .backgroundTask:
            body = .backgroundTask(event: try choice(), task: try r.integer(), name: try optional { try r.string() })
        case .sceneState:
            body = .sceneState(from: try choice(), to: try choice())
        case .resource:
            body = .resource(resource: try choice(), event: try choice())
        case .snapshot:
            body = .snapshot(visible: try strings(), hidden: try strings())
        case .launchImage:
            body = .launchImage(image: try r.string())
        case .wakeRefused:
            body = .wakeRefused(wake: try choice(), reason: try choice())
        case .transfer:
            body = .transfer(event: try choice(), session: try r.string(), task: try choice(), name: try r.string())
        case .scheduledTask:
            body = .scheduledTask(
                event: try choice(), identifier: try r.string(), kind: try choice(),
                reason: try optional { try choice() }, progress: try optional { try r.double() })
        }
        guard r.isAtEnd else { throw CorruptRecord() }
        return TimelineEntry(seq: seq, time: time, app: app, body: body, session: session, sceneState: sceneState)
    }

    /// The kind of an entry's bytes, without decoding the rest.
    package static func kind(of bytes: some Collection<UInt8>) -> Kind? { bytes.first.flatMap(Kind.init(rawValue:)) }

    private static func start(_ kind: Kind, _ time: Double, _ w: inout ByteWriter) {
        w.byte(kind.rawValue)
        w.double(time)
    }

    private enum Tag: UInt8 { case null, no, yes, number, string, array, object }

    private static func json(_ value: JSONValue, into w: inout ByteWriter) {
        switch value {
        case .null: w.byte(Tag.null.rawValue)
        case .bool(let flag): w.byte((flag ? Tag.yes : Tag.no).rawValue)
        case .number(let number):
            w.byte(Tag.number.rawValue)
            w.double(number)
        case .string(let text):
            w.byte(Tag.string.rawValue)
            w.string(text)
        case .array(let items):
            w.byte(Tag.array.rawValue)
            w.varint(UInt64(items.count))
            for item in items { json(item, into: &w) }
        case .object(let members):
            w.byte(Tag.object.rawValue)
            w.varint(UInt64(members.count))
            for (key, member) in members {
                w.string(key)
                json(member, into: &w)
            }
        }
    }

    /// Nesting as deep as the JSON the daemon parses, and no deeper: a damaged blob cannot recurse without end.
    private static func json<Bytes>(_ r: inout ByteReader<Bytes>, depth: Int) throws -> JSONValue {
        guard depth <= JSONParser.defaultMaxDepth, let tag = Tag(rawValue: try r.byte()) else {
            throw CorruptRecord()
        }
        switch tag {
        case .null: return .null
        case .no: return .bool(false)
        case .yes: return .bool(true)
        case .number: return .number(try r.double())
        case .string: return .string(try r.string())
        case .array:
            let count = try r.varint()
            var items: [JSONValue] = []
            for _ in 0..<count { items.append(try json(&r, depth: depth + 1)) }
            return .array(items)
        case .object:
            let count = try r.varint()
            var members: [String: JSONValue] = [:]
            for _ in 0..<count {
                let key = try r.string()
                members[key] = try json(&r, depth: depth + 1)
            }
            return .object(members)
        }
    }
}
