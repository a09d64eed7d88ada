// instruction-count WORKLOAD N: runs N operations of one workload, so that `scripts/instruction-budget` can
// count the instructions they take under callgrind (two runs, N1 and N2: the difference is N2 − N1
// operations, set-up excluded). Deterministic: no clock, no randomness, one client at a time.
import Dispatch
import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleDaemon
import LifecycleScenarios
import LifecycleServer
import LifecycleStore
import Logging

let usage = """
    usage: instruction-count WORKLOAD N
    workloads: core-event-1, core-event-1000 (a launch or homeButton on a device with 1 or 1,000 apps, each
    app in turn, the core alone), read-app (GET /v1/apps/{id}, 1,000 apps on 100 devices, each read in turn:
    most counted reads are an app's first, whose answer is written then), read-app-kept (the same once every
    app was read: each answer is kept, as it is for a dashboard reading apps again), read-new-entries (GET
    /v1/apps/{id}/timeline of an app whose launch was its device's latest change, 100 such apps in turn: what
    a woken long poll or an event stream reads), post-event (POST
    /v1/apps/{id}/events, launch and homeButton in turn over those apps), both through the service
    without sockets, in memory; post-event-journal (the same, journaled to SQLite in a temporary directory);
    embedded-start (what an EmbeddedDaemon does at its start and stop, N times: the daemon built in memory, recovered
    and stopped, no socket); check-scenario (what `lifecycled check` does in process for each scenario file of
    Tests/Conformance/scenarios, taken in the files' order and again from the first: the scenario run in a
    namespace of its own on one daemon in memory, and the namespace deleted; the files read before counting)
    """

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count >= 0 else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}

/// The core alone: one device with `apps` apps, each launched and sent Home in turn, one after the other
/// (with 1,000 apps, every app is visited, so a cost that grows with the apps shows).
func coreEvents(apps: Int, count: Int) throws {
    var configuration = DeviceConfiguration()
    configuration.memoryMB = 1_048_576  // room for every app: no app is ended to free memory
    var device = try Device(id: "d", configuration: configuration)
    for index in 0..<apps {
        var app = AppConfiguration(bundleId: "com.example.a\(index)")
        app.memoryMB = 10
        _ = try device.addApp(id: "a\(index)", configuration: app)
    }
    let ids = (0..<apps).map { "a\($0)" }
    let launch = Event.launch(background: false, url: nil, sourceApplication: nil)
    // Every app launched once and suspended before counting: the events counted are all warm ones.
    for id in ids {
        _ = try device.apply([launch], app: id, now: 0)
        _ = try device.apply([.homeButton], app: id, now: 0)
    }
    var entries = 0
    for index in 0..<count {
        let event: Event = index % 2 == 0 ? launch : .homeButton
        entries += try device.apply([event], app: ids[(index / 2) % apps], now: 0).entries.count
    }
    print("entries: \(entries)")
}

/// A service in memory with 1,000 apps on 100 devices, asked one request at a time.
final class Client {
    let service: LifecycleService
    init(journal: (Logger) throws -> any Journal = { _ in MemoryJournal() }) throws {
        var logger = Logger(label: "instruction-count")
        logger.logLevel = .critical
        service = LifecycleService(journal: try journal(logger), options: ServiceOptions(), logger: logger)
        try service.recover()
        for device in 0..<100 {
            try send("POST", "/v1/devices", #"{"id": "d\#(device)"}"#)
            for app in 0..<10 {
                let id = device * 10 + app
                try send(
                    "POST", "/v1/apps",
                    #"{"id": "a\#(id)", "device": "d\#(device)", "bundleId": "com.example.a\#(id)"}"#)
            }
        }
    }

    struct Failed: Error { var status: Int; var path: String }

    @discardableResult
    func send(_ method: String, _ path: String, _ body: String = "", query: [String: String] = [:]) throws -> Int {
        let answer = start(method, path, body, query: query)
        answer.done.wait()
        guard (200..<300).contains(answer.status.value) || answer.status.value == 409 else {
            throw Failed(status: answer.status.value, path: path)
        }
        return answer.status.value
    }

    /// Asks without waiting: the answer's status is in `status` once `done` is signalled.
    func start(
        _ method: String, _ path: String, _ body: String = "", query: [String: String] = [:]
    ) -> (done: DispatchSemaphore, status: Box) {
        let request = HTTPRequest(
            method: method, path: path, query: query,
            headers: [("Host", "127.0.0.1"), ("Content-Type", "application/json")], body: Array(body.utf8))
        let done = DispatchSemaphore(value: 0)
        let status = Box()
        service.respond(to: request) { response in
            status.value = response.status
            done.signal()
        }
        return (done, status)
    }
}

final class Box: @unchecked Sendable { var value = 0 }

/// Each app gets launch, then homeButton, then launch again...: every event changes something.
func postEvents(through client: Client, count: Int) throws {
    for index in 0..<count {
        let app = index % 1000
        let type = (index / 1000) % 2 == 0 ? "launch" : "homeButton"
        try client.send("POST", "/v1/apps/a\(app)/events", #"{"type": "\#(type)"}"#)
    }
}

do {
    switch arguments[1] {
    case "core-event-1": try coreEvents(apps: 1, count: count)
    case "core-event-1000": try coreEvents(apps: 1000, count: count)
    case "read-app":
        let client = try Client()
        for index in 0..<count { try client.send("GET", "/v1/apps/a\((index * 7) % 1000)") }
    case "read-app-kept":
        let client = try Client()
        for index in 0..<1000 { try client.send("GET", "/v1/apps/a\(index)") }
        for index in 0..<count { try client.send("GET", "/v1/apps/a\((index * 7) % 1000)") }
    case "read-new-entries":
        let client = try Client()
        // Each device's first app launched last, with a long poll waiting on its timeline: the launch's entries
        // are its device's latest change, and a reader followed it.
        for device in 0..<100 {
            let poll = client.start("GET", "/v1/apps/a\(device * 10)/timeline", query: ["after": "0", "wait": "30"])
            try client.send("POST", "/v1/apps/a\(device * 10)/events", #"{"type": "launch"}"#)
            poll.done.wait()
            guard poll.status.value == 200 else { throw Client.Failed(status: poll.status.value, path: "poll") }
        }
        for index in 0..<count {
            try client.send("GET", "/v1/apps/a\((index % 100) * 10)/timeline", query: ["after": "0"])
        }
    case "post-event":
        try postEvents(through: try Client(), count: count)
    case "post-event-journal":
        // The same, journaled to SQLite in a fresh directory (one request at a time: one record per commit).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "instruction-count-\(ProcessInfo.processInfo.processIdentifier)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try postEvents(
            through: try Client { logger in try SQLiteJournal(directory: directory, logger: logger) }, count: count)
    case "embedded-start":
        // As EmbeddedDaemon.init and stop(): a team's test suite pays this for each daemon it starts.
        var configuration = DaemonConfiguration()
        configuration.store = .memory
        var logger = Logger(label: "instruction-count")
        logger.logLevel = .error
        for _ in 0..<count {
            let daemon = try Daemon(configuration: configuration, logger: logger)
            _ = try daemon.recover()
            daemon.stop()
        }
    case "check-scenario":
        // As `lifecycled check` without --url, one scenario at a time (its --parallel aside).
        let scenarios = try Scenario.files(at: "Tests/Conformance/scenarios").map { file in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw Client.Failed(status: 0, path: file)
            }
            return try ScenarioFormat.scenario(file: file, bytes: Array(data))
        }
        var configuration = DaemonConfiguration()
        configuration.store = .memory
        var logger = Logger(label: "instruction-count")
        logger.logLevel = .error
        let daemon = try Daemon(configuration: configuration, logger: logger)
        _ = try daemon.recover()
        let transport = InProcessScenarioTransport(service: daemon.service)
        for index in 0..<count {
            let space = "check-\(index)"
            try ScenarioRunner(transport: transport, namespace: space).run(scenarios[index % scenarios.count])
            let deleted = try transport.exchange(
                method: "DELETE", path: "/v1/namespaces/\(space)", headers: [], body: nil)
            guard deleted.status == 204 else { throw Client.Failed(status: deleted.status, path: space) }
        }
        daemon.stop()
    default:
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("instruction-count: \(error)\n".utf8))
    exit(1)
}
