import Dispatch
import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleTesting
@testable import LifecycleWire
import Logging
import Synchronization
import TestSupport
import Testing

@testable import LifecycleServer

@testable import LifecycleStore

extension TestDaemon {
    // MARK: Fixtures

    /// Creates a device and requires a 201.
    @discardableResult
    func createDevice(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Reply {
        let reply = try post("/v1/devices", body)
        try #require(
            reply.status == 201, "POST /v1/devices answered \(reply.status): \(reply.text)",
            sourceLocation: sourceLocation)
        return reply
    }

    /// Creates an app and requires a 201.
    @discardableResult
    func createApp(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Reply {
        let reply = try post("/v1/apps", body)
        try #require(
            reply.status == 201, "POST /v1/apps answered \(reply.status): \(reply.text)", sourceLocation: sourceLocation
        )
        return reply
    }

    /// Posts events and requires a 200.
    @discardableResult
    func postEvents(
        _ path: String, _ body: String, headers: [(String, String)] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Reply {
        let reply = try post(path, body, headers: headers)
        try #require(
            reply.status == 200, "POST \(path) answered \(reply.status): \(reply.text)", sourceLocation: sourceLocation)
        return reply
    }

    /// Every entry of a timeline (`path` without a query), read page by page with `after` and `limit`.
    func allEntries(_ path: String, limit: Int = 100, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [[String: Any]]
    {
        var entries: [[String: Any]] = []
        var after = 0
        while true {
            let page = try get("\(path)?after=\(after)&limit=\(limit)")
            try #require(
                page.status == 200, "GET \(path) answered \(page.status): \(page.text)", sourceLocation: sourceLocation)
            if page.items.isEmpty { return entries }
            entries += page.items
            let next = try #require(page.int("next"), sourceLocation: sourceLocation)
            try #require(next > after, "the cursor did not move past \(after)", sourceLocation: sourceLocation)
            after = next
        }
    }
}

/// Starts a test daemon, runs `body`, and always stops the daemon. In process unless `transport` says
/// `.live`: a test of what only the HTTP layer does (streams, limits, `Host`, sockets) asks for it.
func withDaemon<T>(
    store: Store = .memory, transport: Transport = .inProcess, historyLimit: Int = 10_000,
    maxBodyBytes: Int = 1 << 20, tokens: TokenTable? = nil, configure: (inout ServiceOptions) -> Void = { _ in },
    _ body: (TestDaemon) throws -> T
) throws -> T {
    let daemon = try TestDaemon(
        store: store, transport: transport, historyLimit: historyLimit, maxBodyBytes: maxBodyBytes, tokens: tokens,
        configure: configure)
    defer { daemon.stop() }
    return try body(daemon)
}

// MARK: Expectations

/// Expects an RFC 9457 problem with this status and code, whose body repeats the status.
func expectProblem(
    _ reply: Reply, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
    #expect(reply.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    #expect(reply.string("code") == code, "\(reply.text)", sourceLocation: sourceLocation)
    #expect(reply.int("status") == status, sourceLocation: sourceLocation)
    #expect(!(reply.string("detail") ?? "").isEmpty, sourceLocation: sourceLocation)
    #expect(reply.string("type") == "https://lifecycled.dev/problems/\(code)", sourceLocation: sourceLocation)
    #expect(reply.string("title") == ProblemCode(rawValue: code)?.title, sourceLocation: sourceLocation)
}

/// A JSON value as text with sorted keys, so two values compare equal exactly when their JSON does.
func canonical(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    else { return "<not JSON: \(value)>" }
    return String(decoding: data, as: UTF8.self)
}

/// The `selector` of each callback entry.
func selectors(_ entries: [[String: Any]]) -> [String] {
    entries.compactMap { $0["selector"] as? String }
}

/// The `seq` of each entry.
func seqs(_ entries: [[String: Any]]) -> [Int] {
    entries.compactMap { ($0["seq"] as? NSNumber)?.intValue }
}

extension TestDaemon {
    /// Waits until exactly `count` long polls are parked (what `lifecycled_long_polls_parked` reports), so
    /// that what the test does next happens while they wait; records an issue if they never are.
    func waitUntilParked(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let parked = eventually { parkedPolls == count }
        #expect(parked, "\(count) long polls never parked", sourceLocation: sourceLocation)
    }
}
