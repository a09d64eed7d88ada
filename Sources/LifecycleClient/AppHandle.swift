import Foundation
public import LifecycleCore
public import LifecycleOpenAPI
import OpenAPIRuntime

/// One app of the client's namespace.
public struct AppHandle: Sendable {
    public let client: LifecycledClient
    public let id: String

    var path: Operations.getAppInNamespace.Input.Path { .init(ns: client.namespace, id: id) }

    /// Sends events in one request, applied in order, all or nothing. `idempotencyKey` makes a retry safe.
    @discardableResult
    public func send(_ events: [Event], idempotencyKey: String? = nil) async throws -> Components.Schemas.AppEventResult
    {
        let body = try Event.bodies(events, as: Components.Schemas.Event.self)
        return try await client.answer("postAppEventsInNamespace") {
            switch try await client.api.postAppEventsInNamespace(
                path: .init(ns: client.namespace, id: id), headers: .init(Idempotency_hyphen_Key: idempotencyKey),
                body: .json(.case2(body)))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "postAppEventsInNamespace", answer: "\(other)")
            }
        }
    }

    @discardableResult
    public func send(_ events: Event...) async throws -> Components.Schemas.AppEventResult { try await send(events) }

    /// Takes the app to `state` by the path the daemon chooses (`moveTo`); `applied` says which events it took.
    @discardableResult
    public func moveTo(_ state: AppState) async throws -> Components.Schemas.AppEventResult {
        try await send([.moveTo(state: state)])
    }

    /// The app as it is now.
    public func get() async throws -> Components.Schemas.App {
        try await client.answer("getAppInNamespace") {
            switch try await client.api.getAppInNamespace(path: path) {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "getAppInNamespace", answer: "\(other)")
            }
        }
    }

    /// Deletes the app.
    public func delete() async throws {
        try await client.answer("deleteAppInNamespace") {
            switch try await client.api.deleteAppInNamespace(path: .init(ns: client.namespace, id: id)) {
            case .noContent: ()
            case let other: throw UnexpectedAnswer(operation: "deleteAppInNamespace", answer: "\(other)")
            }
        }
    }

    /// A page of the delegate callbacks after `after` (a `seq`); with `wait` (seconds), an empty page is held
    /// until one arrives or the wait ends. Go on from `next`.
    public func callbacks(
        after: Int? = nil, limit: Int? = nil, session: String? = nil, wait: Double? = nil
    ) async throws -> Components.Schemas.CallbackPage {
        try await client.answer("getAppCallbacksInNamespace") {
            switch try await client.api.getAppCallbacksInNamespace(
                path: .init(ns: client.namespace, id: id),
                query: .init(after: after, limit: limit, wait: wait, session: session),
                headers: .init(accept: [.init(contentType: .json)]))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "getAppCallbacksInNamespace", answer: "\(other)")
            }
        }
    }

    /// A page of the app's whole timeline (callbacks, notifications, states, ...), as `callbacks` pages.
    public func timeline(
        after: Int? = nil, limit: Int? = nil, session: String? = nil, wait: Double? = nil
    ) async throws -> Components.Schemas.EntryPage {
        try await client.answer("getAppTimelineInNamespace") {
            switch try await client.api.getAppTimelineInNamespace(
                path: .init(ns: client.namespace, id: id),
                query: .init(after: after, limit: limit, wait: wait, session: session),
                headers: .init(accept: [.init(contentType: .json)]))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "getAppTimelineInNamespace", answer: "\(other)")
            }
        }
    }

    /// Checks on the daemon that the app's callbacks (after `after`, about `session`) are `callbacks`: exactly
    /// (`.exact`) or in this order with others between them (`.subsequence`). Returns what was checked when they
    /// are; throws the `verification-failed` `LifecycledProblem` naming where they first differ when not.
    @discardableResult
    public func verify(
        _ callbacks: [String], match: Components.Schemas.VerifyRequest.matchPayload = .exact, after: Int? = nil,
        session: String? = nil
    ) async throws -> Components.Schemas.VerifyResult {
        try await client.answer("verifyAppCallbacksInNamespace") {
            switch try await client.api.verifyAppCallbacksInNamespace(
                path: .init(ns: client.namespace, id: id),
                body: .json(.init(callbacks: callbacks, match: match, after: after, session: session)))
            {
            case .ok(let ok): try ok.body.json
            case let other: throw UnexpectedAnswer(operation: "verifyAppCallbacksInNamespace", answer: "\(other)")
            }
        }
    }

    /// Every callback after `after`, as it happens. From a running daemon, its event stream
    /// (`Accept: text/event-stream`), read as it comes and, after a dropped connection, resumed with
    /// `Last-Event-ID`; from an embedded one, long polls, each going on from the last `seq` received. Either
    /// way nothing is lost or repeated. It ends when the task reading it is cancelled, or with the error that
    /// stopped it (the app deleted: `not-found`; fallen behind the retained history: `StreamGone`).
    public func callbackUpdates(after: Int = 0) -> AsyncThrowingStream<Components.Schemas.CallbackEntry, any Error> {
        updates(of: "callbacks", after: after) { cursor in
            let page = try await callbacks(after: cursor, limit: 1000, wait: 30)
            return (page.items, page.next)
        }
    }

    /// Every timeline entry after `after`, as it happens (as `callbackUpdates`).
    public func timelineUpdates(after: Int = 0) -> AsyncThrowingStream<Components.Schemas.Entry, any Error> {
        updates(of: "timeline", after: after) { cursor in
            let page = try await timeline(after: cursor, limit: 1000, wait: 30)
            return (page.items, page.next)
        }
    }

    private func updates<Item: Decodable & Sendable>(
        of resource: String, after: Int, page: @escaping @Sendable (Int) async throws -> (items: [Item], next: Int)
    ) -> AsyncThrowingStream<Item, any Error> {
        guard let streams = client.streams else { return follow(after: after, page: page) }
        var url = streams.root.appendingPathComponent("v1/namespaces/\(client.namespace)/apps/\(id)/\(resource)")
        url = URL(string: url.absoluteString + "?after=\(after)") ?? url
        return decoded(EventStreamReader.events(url: url, token: streams.token))
    }
    /// Returns once the app is in `state`, waiting on its timeline (a long poll, not a loop of reads); throws
    /// `WaitTimedOut` when `timeout` passes first.
    @discardableResult
    public func waitUntil(_ state: AppState, timeout: Duration = .seconds(30)) async throws -> Components.Schemas.App {
        let deadline = ContinuousClock.now + timeout
        var app = try await get()
        while app.state.rawValue != state.rawValue {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw WaitTimedOut(app: id, state: state.rawValue, last: app.state.rawValue) }
            // Any entry after the last the app had: a change of state always records one.
            _ = try await timeline(after: app.lastSeq, limit: 1, wait: min(60, left.seconds))
            app = try await get()
        }
        return app
    }
}

/// `waitUntil` gave up.
public struct WaitTimedOut: Error, CustomStringConvertible, Sendable {
    public var app: String
    public var state: String
    /// The state the app was last seen in.
    public var last: String
    public var description: String { "app \(app) did not become \(state) in time (it is \(last))" }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

/// The `entry` events of a stream, decoded.
func decoded<Item: Decodable & Sendable>(
    _ events: AsyncThrowingStream<ServerSentEvent, any Error>
) -> AsyncThrowingStream<Item, any Error> {
    AsyncThrowingStream { continuation in
        let task = Task {
            do {
                for try await event in events where event.event == "entry" {
                    continuation.yield(try JSONDecoder().decode(Item.self, from: Data(event.data.utf8)))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}

/// Items read page after page from a cursor, as an asynchronous sequence.
func follow<Item: Sendable>(
    after: Int, page: @escaping @Sendable (Int) async throws -> (items: [Item], next: Int)
) -> AsyncThrowingStream<Item, any Error> {
    AsyncThrowingStream { continuation in
        let task = Task {
            var cursor = after
            do {
                while !Task.isCancelled {
                    let (items, next) = try await page(cursor)
                    for item in items { continuation.yield(item) }
                    cursor = next
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}
