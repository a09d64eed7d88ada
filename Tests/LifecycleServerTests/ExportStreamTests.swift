import Dispatch
import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleTesting
import Locking
import TestSupport
import Testing

@testable import LifecycleServer

/// An export is written as it is read, off the HTTP threads, through a bounded buffer: its answer is the same
/// bytes as the scenario written whole, a client that reads slowly holds the daemon to the buffer, other
/// requests are answered meanwhile, and only a few run at once.
@Suite struct ExportStreamTests {
    /// A namespace of `devices` manual-clock devices driven the same way every time: apps created and one
    /// deleted (its id created again on the next device, named so that the replay order is not the ids'), batches of events
    /// with and without idempotency keys, and time. `batch` pairs of lock/unlock per batch set how large
    /// each step is.
    /// In process, live daemon or not: what is filled, not how, is what the tests read.
    static func fill(_ server: TestDaemon, space: String, devices: Int, rounds: Int, batch: Int) throws {
        try server.withRequestsInProcess {
            try fillAsRequested(server, space: space, devices: devices, rounds: rounds, batch: batch)
        }
    }

    private static func fillAsRequested(_ server: TestDaemon, space: String, devices: Int, rounds: Int, batch: Int)
        throws
    {
        let base = "/v1/namespaces/\(space)"
        let lockUnlock = Array(repeating: #"{"type": "lock"}, {"type": "unlock"}"#, count: batch).joined(
            separator: ", ")
        for index in 0..<devices {
            // Named backwards: d1 creates the app d2 deleted, so it comes before d2 by id and replays after it.
            let device = "d\(devices - 1 - index)"
            let created = try server.post("\(base)/devices", #"{"id": "\#(device)", "iosVersion": "15.0"}"#)
            try #require(created.status == 201, "\(created.text)")
            for app in ["mail", "maps"] {
                let id = "\(device)-\(app)"
                let made = try server.post(
                    "\(base)/apps", #"{"id": "\#(id)", "device": "\#(device)", "bundleId": "com.example.\#(app)"}"#)
                try #require(made.status == 201, "\(made.text)")
            }
            if index == 1 {
                // The app the device made first deleted, created again here: that one replays first.
                let again = try server.post(
                    "\(base)/apps", #"{"id": "moved", "device": "\#(device)", "bundleId": "com.example.moved"}"#)
                try #require(again.status == 201, "\(again.text)")
            }
            for round in 0..<rounds {
                let app = round % 2 == 0 ? "\(device)-mail" : "\(device)-maps"
                let key = round % 5 == 0 ? [("Idempotency-Key", "\(device)-k\(round)")] : []
                _ = try server.post("\(base)/apps/\(app)/events", #"{"type": "launch"}"#, headers: key)
                try server.postEvents("\(base)/devices/\(device)/events", #"[{"type": "homeButton"}, \#(lockUnlock)]"#)
                try server.postEvents(
                    "\(base)/devices/\(device)/events", #"{"type": "advanceTime", "seconds": \#(round % 7 + 1)}"#)
            }
            if index == 0 {
                let moved = try server.post(
                    "\(base)/apps", #"{"id": "moved", "device": "\#(device)", "bundleId": "com.example.moved"}"#)
                try #require(moved.status == 201, "\(moved.text)")
                _ = try server.post("\(base)/apps/moved/events", #"{"type": "launch"}"#)
                try #require(try server.delete("\(base)/apps/moved").status == 204)
            }
        }
    }

    /// The export of `fill(space: "golden", devices: 3, rounds: 40, batch: 3)` as the scenario was written
    /// whole, before exports streamed; the release in `source` is written `VERSION`.
    static var golden: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/export-golden.scenario.json").standardized
    }

    /// `body` with this build's release in `source` written `VERSION`, as the fixture has it.
    static func versionless(_ body: [UInt8]) -> String {
        String(decoding: body, as: UTF8.self).replacingOccurrences(
            of: "(lifecycled \(BuildInfo.version))", with: "(lifecycled VERSION)")
    }

    /// Over HTTP (chunked, through a buffer of 4 KiB: many times over) and in process (read whole, as the
    /// embedded daemon and `lifecycled check` read it), the bytes the scenario had when it was written whole.
    /// `LIFECYCLED_WRITE_EXPORT_GOLDEN=1` writes the fixture anew from the live answer.
    @Test(arguments: [Transport.live, .inProcess])
    func theExportIsTheSameBytesAsTheScenarioWrittenWhole(transport: Transport) throws {
        try withDaemon(transport: transport, configure: { $0.exportBufferBytes = 4096 }) { server in
            try Self.fill(server, space: "golden", devices: 3, rounds: 40, batch: 3)
            let export = try server.get("/v1/namespaces/golden/export")
            #expect(export.status == 200, "\(export.text)")
            #expect(export.header("Content-Disposition") == #"attachment; filename="golden.scenario.json""#)
            if transport == .live {
                #expect(export.header("Transfer-Encoding") == "chunked")
                if ProcessInfo.processInfo.environment["LIFECYCLED_WRITE_EXPORT_GOLDEN"] == "1" {
                    try Data(Self.versionless(export.body).utf8).write(to: Self.golden)
                }
            }
            let expected = try String(contentsOf: Self.golden, encoding: .utf8)
            #expect(Self.versionless(export.body) == expected)
            #expect(eventually { server.service.exportsInFlight == 0 && server.service.exportBytesInFlight == 0 })
        }
    }

    /// A client that stops reading holds the export to its buffer: the writer waits, it does not write on into
    /// memory. Gone, the client takes the export with it.
    @Test func aClientThatStopsReadingHoldsTheExportToItsBuffer() throws {
        let buffer = 16 << 10
        try withDaemon(transport: .live, configure: Self.pastTheSockets(buffer: buffer)) { server in
            try Self.fillPastTheSockets(server, space: "slow", buffer: buffer)
            var (client, head): (TestHTTPClient?, TestHTTPResponse) = try Self.openExport(server, space: "slow")
            #expect(head.status == 200)
            #expect(eventually(seconds: 60) { server.service.exportBytesInFlight >= buffer / 2 })
            // Watched for a second of real time: what is tested is that the writer does not go on (no state to
            // wait for), while the export's thread, not a clock of the test's, would write. How much the stream
            // holds at each moment also depends on how much the socket still takes: at most its buffer and one
            // step (the bytes it holds while nothing takes them, exactly, is the next test's).
            for _ in 0..<20 {
                let held = server.service.exportBytesInFlight
                let bound = Self.bound(buffer, step: 52 << 10)
                #expect(held <= bound, "the export holds \(held) bytes; its buffer is \(buffer)")
                #expect(server.service.exportsInFlight == 1)
                Thread.sleep(forTimeInterval: 0.05)
            }
            client = nil
            #expect(eventually(seconds: 60) { server.service.exportsInFlight == 0 })
            #expect(server.service.exportBytesInFlight == 0)
            _ = client
        }
    }

    /// The same without a socket between: a reader that takes nothing. The writer fills the buffer and stops
    /// there, holding exactly what it wrote while nothing is taken; what the reader takes, it writes again, up to
    /// the buffer. Abandoned, the stream takes the export with it.
    @Test func aReaderThatTakesNothingHoldsTheExportToItsBuffer() throws {
        let buffer = 16 << 10
        try withDaemon(configure: { $0.exportBufferBytes = buffer }) { server in
            try Self.fill(server, space: "slow", devices: 2, rounds: 100, batch: 200)
            let answer = Protected<HTTPResponse?>(nil)
            server.service.respond(to: HTTPRequest(method: "GET", path: "/v1/namespaces/slow/export")) {
                answer.set($0)
            }
            #expect(eventually(seconds: 60) { answer.get() != nil })
            let stream = try #require(answer.get()?.stream)
            #expect(answer.get()?.status == 200)
            // Full: the writer waits for room, which nothing makes.
            #expect(eventually(seconds: 60) { server.service.exportBytesInFlight >= buffer })
            let full = server.service.exportBytesInFlight
            #expect(full <= Self.bound(buffer), "the export holds \(full) bytes; its buffer is \(buffer)")
            // Watched for a second of real time, as above: the writer would go on on its own thread.
            for _ in 0..<20 {
                #expect(server.service.exportBytesInFlight == full)
                #expect(server.service.exportsInFlight == 1)
                Thread.sleep(forTimeInterval: 0.05)
            }
            stream.abandon()
            #expect(eventually(seconds: 60) { server.service.exportsInFlight == 0 })
            #expect(server.service.exportBytesInFlight == 0)
        }
    }

    /// What an export's stream holds at most: its buffer, and one step written past it (`fill`'s steps are some
    /// 7 KiB, `fillPastTheSockets`'s some 49).
    static func bound(_ buffer: Int, step: Int = 8 << 10) -> Int { buffer + step }

    /// Bytes the sockets of an export to `openExport`'s client may take before its stream holds any: the most
    /// the kernel lets a TCP socket queue for sending (`tcp_wmem`'s last), and the client's receive buffer.
    static var socketBytes: Int {
        let wmem = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8)) ?? ""
        let sendMost = wmem.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) } ?? 4 << 20
        return sendMost + 2 * Int(openExportReceiveBytes)
    }

    /// A namespace whose export is larger than the sockets take and `buffer` holds, so that a client that
    /// takes none of it holds the export under way: one device with notifications of some 48 KiB each, which
    /// the export writes as steps of as much (cheaper to make than as many bytes of small events).
    /// Options for `fillPastTheSockets`: an export buffer of `buffer` bytes, and devices that record all of it.
    static func pastTheSockets(buffer: Int) -> (inout ServiceOptions) -> Void {
        {
            $0.exportBufferBytes = buffer
            $0.recordingBytes = 64 << 20
        }
    }

    static func fillPastTheSockets(_ server: TestDaemon, space: String, buffer: Int) throws {
        let payload = String(repeating: "p", count: 48 << 10)
        let notifications = (socketBytes + buffer) / (48 << 10) + 8
        let base = "/v1/namespaces/\(space)"
        try server.withRequestsInProcess {
            try #require(try server.post("\(base)/apps", #"{"id": "a", "bundleId": "com.example.a"}"#).status == 201)
            try server.postEvents("\(base)/apps/a/events", #"{"type": "launch"}"#)
            for _ in 0..<notifications {
                try server.postEvents(
                    "\(base)/apps/a/events", #"{"type": "remoteNotification", "payload": {"p": "\#(payload)"}}"#)
            }
        }
    }

    /// Opens an export of `space` and reads only its head: with a small receive buffer the client soon stops
    /// taking the body, and the export stays under way until the client is closed.
    static func openExport(_ server: TestDaemon, space: String) throws -> (TestHTTPClient, TestHTTPResponse) {
        let client = try TestHTTPClient(
            port: server.port, timeoutSeconds: 120, receiveBufferBytes: openExportReceiveBytes)
        try client.sendRequest(path: "/v1/namespaces/\(space)/export")
        return (client, try client.readHead())
    }

    /// The receive buffer `openExport`'s client asks for.
    static let openExportReceiveBytes: Int32 = 4096

    /// Four at once in the daemon, one per namespace: the fifth, and a second in a namespace, answer 429.
    @Test func aFewExportsRunAtOnceAndOnePerNamespace() throws {
        try withDaemon(transport: .live) { server in
            let spaces = (0..<6).map { "n\($0)" }
            for space in spaces { try Self.fill(server, space: space, devices: 2, rounds: 60, batch: 40) }
            var open: [TestHTTPClient] = []
            for space in spaces.prefix(4) {
                let (client, head) = try Self.openExport(server, space: space)
                #expect(head.status == 200)
                open.append(client)
            }
            // A fifth, in a namespace of its own: the daemon runs four at once.
            let fifth = try server.get("/v1/namespaces/n4/export")
            expectProblem(fifth, status: 429, code: "too-many-requests")
            #expect(fifth.header("Retry-After") != nil)
            // A second in a namespace that has one under way.
            expectProblem(try server.get("/v1/namespaces/n0/export"), status: 429, code: "too-many-requests")
            // A client that goes away ends its export: its namespace and a place are free again.
            open.removeFirst()
            #expect(eventually { (try? server.get("/v1/namespaces/n0/export").status) == 200 })
            #expect(eventually { (try? server.get("/v1/namespaces/n5/export").status) == 200 })
            _ = open
        }
    }

    /// A large export under way, held by a client that takes only its head: `/livez` and another namespace's
    /// reads and writes are answered while it stays under way (written whole on an HTTP thread, the export kept
    /// them waiting until it was built). Told by order, not by time: the export is still running after them, as
    /// it is larger than the sockets and its buffer take.
    @Test func requestsAreAnsweredWhileALargeNamespaceExports() throws {
        let buffer = 16 << 10
        try withDaemon(transport: .live, configure: Self.pastTheSockets(buffer: buffer)) { server in
            try Self.fillPastTheSockets(server, space: "large", buffer: buffer)
            let (client, head) = try Self.openExport(server, space: "large")
            #expect(head.status == 200)
            for _ in 0..<20 {
                #expect(try server.get("/livez").status == 200)
                #expect(try server.post("/v1/namespaces/other/devices", "{}").status == 201)
            }
            #expect(server.service.exportsInFlight == 1, "the export ended before the requests were answered")
            withExtendedLifetime(client) {}
        }
    }
}
