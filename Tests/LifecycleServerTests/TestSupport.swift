import Dispatch
import Foundation
import HTTPServer
@testable import LifecycleWire
import Logging
import Synchronization
import Testing

@testable import LifecycleServer

@testable import LifecycleStore

/// Where a live server keeps its journal.
enum Store {
    case memory
    /// A `SQLiteJournal` in this directory (which outlives the server, for restarts).
    case sqlite(directory: String)
    /// A `SQLiteJournal` in this directory whose database cannot grow past `pageLimit` pages: a full disk.
    case sqliteFull(directory: String, pageLimit: Int)
}

/// The real daemon in-process: a `LifecycleService` behind an `HTTPServer` on a free port, recovered and open.
final class LiveServer: Sendable {
    let service: LifecycleService
    let server: HTTPServer
    let journal: any Journal
    private let stopped = Locked(false)
    /// How many times the service reported that its store failed (the daemon would exit then).
    let storeFailures: Locked<Int>

    var port: Int { server.port }

    init(
        store: Store = .memory, historyLimit: Int = 10_000, maxBodyBytes: Int = 1 << 20, snapshotEvery: Int = 10_000,
        tokens: TokenTable? = nil, configure: (inout ServiceOptions) -> Void = { _ in }
    ) throws {
        var logger = Logger(label: "LifecycleServerTests")
        logger.logLevel = .error
        switch store {
        case .memory: journal = MemoryJournal()
        case .sqlite(let directory): journal = try SQLiteJournal(directory: directory, logger: logger)
        case .sqliteFull(let directory, let pageLimit):
            journal = try SQLiteJournal(
                directory: directory, logger: logger,
                busyTimeoutMilliseconds: SQLiteConnection.defaultBusyTimeoutMilliseconds, pageLimit: pageLimit)
        }
        var options = ServiceOptions()
        options.historyLimit = historyLimit
        options.tokens = tokens
        options.snapshotEvery = snapshotEvery
        options.metricsText = { "# TYPE lifecycled_up gauge\nlifecycled_up 1\n" }
        let failures = Locked(0)
        storeFailures = failures
        options.storeFailed = { failures.update { $0 += 1 } }
        configure(&options)
        service = LifecycleService(journal: journal, options: options, logger: logger)
        try service.recover()
        server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, maxBodyBytes: maxBodyBytes), responder: service,
            logger: logger)
        do {
            try server.start()
        } catch {
            journal.close()
            throw error
        }
    }

    /// Stops as the daemon does on SIGTERM: drain, quiesce, make everything durable, stop, close the store.
    func stop() {
        guard stopped.exchange(true) == false else { return }
        service.beginDraining()
        server.quiesce()
        service.finishDraining()
        server.stop()
        journal.close()
    }

    // MARK: Requests

    func request(
        _ method: String, _ path: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> Reply {
        var headers = headers
        if body != nil, !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            headers.append(("Content-Type", "application/json"))
        }
        return try BlockingHTTPClient.exchange(
            port: port, method: method, path: path, headers: headers, body: Array((body ?? "").utf8))
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> Reply {
        try request("GET", path, headers: headers)
    }

    /// POSTs `body`, a JSON text, as `application/json`.
    func post(_ path: String, _ body: String, headers: [(String, String)] = []) throws -> Reply {
        try request("POST", path, body: body, headers: headers)
    }

    func delete(_ path: String) throws -> Reply {
        try request("DELETE", path)
    }

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

/// Starts a live server, runs `body`, and always stops the server.
func withLiveServer<T>(
    store: Store = .memory, historyLimit: Int = 10_000, maxBodyBytes: Int = 1 << 20, tokens: TokenTable? = nil,
    configure: (inout ServiceOptions) -> Void = { _ in }, _ body: (LiveServer) throws -> T
) throws -> T {
    let server = try LiveServer(
        store: store, historyLimit: historyLimit, maxBodyBytes: maxBodyBytes, tokens: tokens, configure: configure)
    defer { server.stop() }
    return try body(server)
}

/// A fresh directory under the system's temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifecycled-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
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

/// Whether `condition` holds within `seconds`, looking every 2 ms (as the HTTP server's tests do).
func eventually(seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if try condition() { return true }
        usleep(2000)
    }
    return try condition()
}

extension LiveServer {
    /// Waits until exactly `count` long polls are parked (what `lifecycled_long_polls_parked` reports), so
    /// that what the test does next happens while they wait; records an issue if they never are.
    func waitUntilParked(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let parked = eventually { service.parked.load(ordering: .relaxed) == count }
        #expect(parked, "\(count) long polls never parked", sourceLocation: sourceLocation)
    }
}

/// Seconds since `start`.
func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Runs `body` on a new thread; `join()` waits for it and returns its result.
final class Background<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<Result<Value, any Error>?>(nil)

    /// Whether the body has returned (or thrown).
    var isFinished: Bool { result.get() != nil }

    init(_ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [done, result] in
            result.set(Result(catching: body))
            done.signal()
        }
        thread.start()
    }

    func join() throws -> Value {
        done.wait()
        return try result.get()!.get()
    }
}

/// A value shared across threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }

    func exchange(_ newValue: Value) -> Value {
        lock.withLock {
            let old = value
            value = newValue
            return old
        }
    }
}
