package import LifecycleHosting

extension ChangeFeed {
    /// What a change names: an app or a device.
    package enum Kind: String, Sendable {
        case app, device
    }

    /// One resource a `ChangeFeed` reports on.
    package struct Key: Hashable, Sendable {
        let kind: Kind
        let id: String

        init(kind: Kind, id: String) {
            self.kind = kind
            self.id = id
        }
    }

    /// A resource that changed (or went: `deleted`), and the host that holds it.
    package struct Mark: Sendable {
        package let kind: Kind
        package let id: String
        package let host: DeviceHost
        package let deleted: Bool
        package var key: Key { Key(kind: kind, id: id) }

        init(kind: Kind, id: String, host: DeviceHost, deleted: Bool) {
            self.kind = kind
            self.id = id
            self.host = host
            self.deleted = deleted
        }
    }
}

/// Why the daemon ends a stream of its own accord (sent as the stream's last event, `event: end`).
package enum EventStreamEnd: String, Sendable {
    /// The app or device the stream follows was deleted.
    case deleted
    /// `POST /v1/reset` deleted everything.
    case reset
    /// The daemon is draining before it stops (`SIGTERM`); reconnect once it is back.
    case shutdown
    /// The tokens were replaced (`SIGHUP`) and the one that opened the stream no longer allows it.
    case revoked
}

/// A stream the daemon may end of its own accord (an event stream), saying why.
package protocol EventStreamEnding: AnyObject, Sendable {
    func end(_ reason: EventStreamEnd)
}

/// What follows a `ChangeFeed` (a `changes` event stream): it hears the marks, and an end.
package protocol ChangeSubscriber: EventStreamEnding {
    func mark(_ marks: [ChangeFeed.Mark])
}
