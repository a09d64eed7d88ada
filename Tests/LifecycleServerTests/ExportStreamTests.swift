import Dispatch
import Foundation
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
    static func fill(_ server: TestDaemon, space: String, devices: Int, rounds: Int, batch: Int) throws {
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
        try withDaemon(transport: .live, configure: { $0.exportBufferBytes = buffer }) { server in
            // Some 2 MiB of steps of some 7 KiB each.
            try Self.fill(server, space: "slow", devices: 2, rounds: 100, batch: 200)
            var (client, head): (TestHTTPClient?, TestHTTPResponse) = try Self.openExport(server, space: "slow")
            #expect(head.status == 200)
            // The buffer, and one step written past it at most.
            let bound = buffer + (8 << 10)
            #expect(eventually { server.service.exportBytesInFlight >= buffer / 2 })
            // Watched for a second of real time: what is tested is that the writer does not go on (no state to
            // wait for), while the export's thread, not a clock of the test's, would write.
            for _ in 0..<20 {
                let held = server.service.exportBytesInFlight
                #expect(held > 0 && held <= bound, "the export holds \(held) bytes; its buffer is \(buffer)")
                #expect(server.service.exportsInFlight == 1)
                Thread.sleep(forTimeInterval: 0.05)
            }
            client = nil
            #expect(eventually { server.service.exportsInFlight == 0 && server.service.exportBytesInFlight == 0 })
            _ = client
        }
    }

    /// Opens an export of `space` and reads only its head: with a small receive buffer the client soon stops
    /// taking the body, and the export stays under way until the client is closed.
    static func openExport(_ server: TestDaemon, space: String) throws -> (TestHTTPClient, TestHTTPResponse) {
        let client = try TestHTTPClient(port: server.port, timeoutSeconds: 20, receiveBufferBytes: 4096)
        try client.sendRequest(path: "/v1/namespaces/\(space)/export")
        return (client, try client.readHead())
    }

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
    /// them waiting until it was built). Told by order, not by time: the export is still running after them.
    @Test func requestsAreAnsweredWhileALargeNamespaceExports() throws {
        try withDaemon(transport: .live, configure: { $0.recordingBytes = 256 << 20 }) { server in
            try Self.fill(server, space: "large", devices: 4, rounds: 100, batch: 400)
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
