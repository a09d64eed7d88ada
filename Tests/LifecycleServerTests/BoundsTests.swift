import Foundation
import LifecycleApplication
import LifecycleHosting
import LifecycleServer
import LifecycleStore
import Logging
import LifecycleTesting
import TestSupport
import Testing

/// Memory is bounded whatever clients send: one event, one answer, one device's history.
@Suite struct BoundsTests {
    private func payload(_ bytes: Int) -> String { String(repeating: "x", count: bytes) }

    @Test func anEventOverMaxEventBytesIsPayloadTooLargeWithItsIndexAndChangesNothing() throws {
        try withDaemon(configure: { $0.maxEventBytes = 4096 }) { server in
            try server.createApp(#"{"id": "a1", "bundleId": "com.example.a"}"#)
            let single = try server.post(
                "/v1/apps/a1/events", #"{"type": "launch", "url": "mail:\#(payload(5000))"}"#)
            expectProblem(single, status: 413, code: "payload-too-large")
            #expect(single.int("limit") == 4096)
            let batch = try server.post(
                "/v1/apps/a1/events",
                #"[{"type": "launch"}, {"type": "remoteNotification", "payload": {"p": "\#(payload(5000))"}}]"#)
            expectProblem(batch, status: 413, code: "payload-too-large")
            #expect(batch.int("index") == 1)
            #expect(try server.get("/v1/apps/a1").string("state") == "notRunning")
            // Under the limit, and a batch whose events are each under it, are accepted.
            try server.postEvents(
                "/v1/apps/a1/events",
                #"[{"type": "launch"}, {"type": "remoteNotification", "payload": {"p": "\#(payload(3000))"}}, "#
                    + #"{"type": "remoteNotification", "payload": {"p": "\#(payload(3000))"}}]"#)
        }
    }

    @Test func aDeviceOrAppDescriptionOverMaxEventBytesIsPayloadTooLarge() throws {
        try withDaemon(configure: { $0.maxEventBytes = 4096 }) { server in
            let device = try server.post("/v1/devices", #"{"settings": {"settings": "\#(payload(5000))"}}"#)
            expectProblem(device, status: 413, code: "payload-too-large")
            let app = try server.post(
                "/v1/apps", #"{"bundleId": "\#(payload(200))", "info": {"urlSchemes": ["\#(payload(5000))"]}}"#)
            expectProblem(app, status: 413, code: "payload-too-large")
            #expect(try server.get("/v1/devices").items.isEmpty)
        }
    }

    @Test func aPageStopsOnceItsItemsReachMaxAnswerBytesAndNextGoesOn() throws {
        try withDaemon(configure: { $0.maxAnswerBytes = 10_000 }) { server in
            try server.createApp(#"{"id": "a1", "bundleId": "com.example.a"}"#)
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            for _ in 0..<10 {
                try server.postEvents(
                    "/v1/apps/a1/events",
                    #"{"type": "remoteNotification", "payload": {"p": "\#(payload(3000))"}}"#)
            }
            let page = try server.get("/v1/apps/a1/timeline?limit=1000")
            #expect(page.status == 200)
            #expect(page.body.count < 10_000 + 4_000, "\(page.body.count) bytes")
            let next = try #require(page.int("next"))
            let rest = try server.get("/v1/apps/a1/timeline?limit=1000&after=\(next)")
            #expect(!rest.items.isEmpty)
            // Read to the end, every entry comes once and in order.
            let all = try server.allEntries("/v1/apps/a1/timeline", limit: 1000)
            #expect(seqs(all) == seqs(all).sorted())
            #expect(Set(seqs(all)).count == all.count)
            #expect(all.count > page.items.count)
        }
    }

    @Test func listsStopOnceTheirItemsReachMaxAnswerBytes() throws {
        try withDaemon(configure: { $0.maxAnswerBytes = 65_536 }) { server in
            for index in 0..<40 {
                try server.createDevice(#"{"id": "d\#(index)", "settings": {"settings": "\#(payload(3000))"}}"#)
                try server.createApp(
                    #"{"id": "a\#(index)", "device": "d\#(index)", "bundleId": "\#(payload(255))", "info": {"urlSchemes": ["\#(payload(2000))"]}}"#
                )
            }
            var seen: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let page = try server.get("/v1/devices?limit=1000" + (after.map { "&after=\($0)" } ?? ""))
                #expect(page.body.count < 65_536 + 4_000)
                seen += page.items.compactMap { $0["id"] as? String }
                after = page.string("next")
                pages += 1
            } while after != nil && pages < 100
            #expect(pages > 1)
            #expect(seen.count == 40 && Set(seen).count == 40)
            let apps = try server.get("/v1/apps?limit=1000")
            #expect(apps.items.count < 40 && apps.string("next") != nil)
        }
    }

    @Test func aDeviceKeepsAtMostHistoryBytesAcrossItsTimelinesAndOlderCursorsAreGone() throws {
        let cap = 200_000
        try withDaemon(configure: { $0.historyBytes = cap }) { server in
            try server.createDevice(#"{"id": "d1"}"#)
            for app in ["a1", "a2"] {
                try server.createApp(#"{"id": "\#(app)", "device": "d1", "bundleId": "com.example.\#(app)"}"#)
            }
            try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
            for index in 0..<200 {
                let app = index % 2 == 0 ? "a1" : "a2"
                try server.postEvents(
                    "/v1/apps/\(app)/events",
                    #"{"type": "remoteNotification", "payload": {"p": "\#(payload(3000))"}}"#)
            }
            var retained = 0
            var seen = Set<Int>()
            for path in ["/v1/devices/d1/timeline", "/v1/apps/a1/timeline", "/v1/apps/a2/timeline"] {
                let page = try server.get(path + "?limit=1000")
                for item in page.items {
                    let seq = item["seq"] as! Int
                    if seen.insert(seq).inserted {
                        retained += try JSONSerialization.data(withJSONObject: item).count
                    }
                }
            }
            #expect(retained <= cap + 10_000, "\(retained) bytes retained")
            #expect(retained > cap / 2, "\(retained) bytes retained")
            let oldest = try #require(seqs(try server.get("/v1/apps/a1/timeline?limit=1").items).first)
            #expect(oldest > 10, "the oldest entries of a1 were evicted")
            expectProblem(try server.get("/v1/apps/a1/timeline?after=1"), status: 410, code: "gone")
        }
    }
}

extension BoundsTests {
    /// The daemon's budget over every device: once the devices together pass it, the one holding the most
    /// gives up its oldest entries (410 behind them) until they fit; a device that stays small keeps its own.
    @Test func devicesTogetherKeepAtMostHistoryBytesTotalAndTheLargestGivesWayFirst() throws {
        let budget = 300_000
        try withDaemon(configure: { $0.memoryBytes = budget }) { server in
            for device in ["big", "small"] {
                try server.createDevice(#"{"id": "\#(device)"}"#)
                try server.createApp(#"{"id": "\#(device)-app", "device": "\#(device)", "bundleId": "com.example.a"}"#)
                try server.postEvents("/v1/apps/\(device)-app/events", #"{"type": "launch"}"#)
            }
            for _ in 0..<5 {
                try server.postEvents(
                    "/v1/apps/small-app/events",
                    #"{"type": "remoteNotification", "payload": {"p": "\#(payload(3000))"}}"#)
            }
            for _ in 0..<150 {
                try server.postEvents(
                    "/v1/apps/big-app/events", #"{"type": "remoteNotification", "payload": {"p": "\#(payload(3000))"}}"#
                )
            }
            // The trim runs off the request path: wait for it.
            #expect(eventually { server.service.application.memoryBudget.total <= budget })
            #expect(server.service.application.memoryBudget.total > budget / 2)
            expectProblem(try server.get("/v1/apps/big-app/timeline?after=1"), status: 410, code: "gone")
            // The small device kept everything it had.
            #expect(try server.get("/v1/apps/small-app/timeline?after=0&limit=1000").status == 200)
            #expect(try server.get("/v1/apps/small-app/timeline?after=0&limit=1000").items.count >= 5)
            // A deleted device's entries no longer count.
            let before = server.service.application.memoryBudget.total
            #expect(try server.delete("/v1/devices/big").status == 204)
            #expect(eventually { server.service.application.memoryBudget.total < before / 2 })
        }
    }

    /// The byte cap is applied the same way live, on replay and from a snapshot: a restart serves the same history.
    @Test(arguments: [5, 1_000_000])
    func aRestartKeepsTheSameCappedHistory(snapshotEvery: Int) throws {
        let configure: (inout ServiceOptions) -> Void = {
            $0.historyBytes = 60_000
            $0.snapshotEvery = snapshotEvery
        }
        let paths = ["/v1/devices/d1/timeline", "/v1/apps/a1/timeline", "/v1/apps/a2/timeline"]
        try withTemporaryDirectory { directory in
            var before: [String: String] = [:]
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory), configure: configure)
                defer { server.stop() }
                try server.createDevice(#"{"id": "d1"}"#)
                for app in ["a1", "a2"] {
                    try server.createApp(#"{"id": "\#(app)", "device": "d1", "bundleId": "com.example.\#(app)"}"#)
                }
                try server.postEvents("/v1/apps/a1/events", #"{"type": "launch"}"#)
                for index in 0..<120 {
                    let event =
                        index % 3 == 0
                        ? #"{"type": "launch"}"#
                        : #"{"type": "remoteNotification", "payload": {"p": "\#(String(repeating: "z", count: 2500))"}}"#
                    try server.postEvents("/v1/apps/\(index % 2 == 0 ? "a1" : "a2")/events", event)
                }
                for path in paths { before[path] = try server.get(path + "?limit=1000").text }
                let oldest = try #require(seqs(try server.get("/v1/devices/d1/timeline?limit=1").items).first)
                #expect(oldest > 1, "the cap evicted entries")
            }
            let server = try TestDaemon(store: .sqlite(directory: directory), configure: configure)
            defer { server.stop() }
            for path in paths {
                #expect(try server.get(path + "?limit=1000").text == before[path], "\(path)")
            }
        }
    }
}

/// The journal is bounded per device by bytes too: requests that produce no entry (payloads queued for a
/// suspended app) still bring a snapshot once their records pass `snapshotBytes`, and the records it covers go.
@Suite struct JournalBytesTests {
    @Test func recordsThatProduceNoEntryStillBringASnapshotOnceTheirBytesPassTheBound() throws {
        let payload = String(repeating: "x", count: 8000)
        try withTemporaryDirectory { directory in
            do {
                let server = try TestDaemon(
                    store: .sqlite(directory: directory), configure: { $0.snapshotBytes = 64 << 10 })
                defer { server.stop() }
                try server.createApp(#"{"id": "a", "bundleId": "com.example.a", "iosVersion": "7.0"}"#)
                try server.postEvents("/v1/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
                for _ in 0..<40 {
                    try server.postEvents(
                        "/v1/apps/a/events", #"{"type": "remoteNotification", "payload": {"p": "\#(payload)"}}"#)
                }
            }
            do {
                let journal = try SQLiteJournal(directory: directory, logger: Logger(label: "JournalBytesTests"))
                defer { journal.close() }
                let streams = try journal.recover()
                let device = try #require(streams.first { $0.snapshot != nil })
                let bytes = device.records.map(\.bytes.count).reduce(0, +)
                // 40 records of 8 KB (320 KB) were written; a snapshot came once they passed 64 KiB.
                #expect(bytes < (64 << 10) + 9000, "\(bytes) bytes of records after the last snapshot")
            }
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            #expect(try server.get("/v1/apps/a").string("state") == "suspended")
        }
    }
}

/// The data directory is capped: past `maxDataBytes`, or below `minFreeDiskBytes` of free disk, changes answer
/// 507 insufficient-storage and change nothing, while deletions go on and free room.
@Suite struct DiskBoundsTests {
    @Test func pastTheDataCapChangesAnswer507ButDeletionsGoOnAndFreeRoom() throws {
        let payload = String(repeating: "x", count: 30_000)
        try withTemporaryDirectory { directory in
            let server = try TestDaemon(
                store: .sqlite(directory: directory), configure: { $0.maxDataBytes = 400_000 })
            defer { server.stop() }
            try server.createApp(#"{"id": "a", "bundleId": "com.example.a", "iosVersion": "7.0"}"#)
            try server.postEvents("/v1/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            let event = #"{"type": "remoteNotification", "payload": {"p": "\#(payload)"}}"#
            var refused: Reply?
            for _ in 0..<40 {
                let reply = try server.post("/v1/apps/a/events", event)
                if reply.status != 200 {
                    refused = reply
                    break
                }
            }
            let reply = try #require(refused, "40 payloads of 30 KB fit under a 400 KB cap")
            expectProblem(reply, status: 507, code: "insufficient-storage")
            #expect(reply.int("limit") == 400_000)
            #expect(reply.string("detail")?.contains("--max-data-bytes") == true)
            expectProblem(try server.post("/v1/devices", "{}"), status: 507, code: "insufficient-storage")
            // Reads go on; a deletion frees room and writes go on.
            #expect(try server.get("/v1/apps/a").status == 200)
            #expect(try server.delete("/v1/apps/a").status == 204)
            let devices = try server.get("/v1/devices").object["items"] as? [[String: Any]] ?? []
            for device in devices { _ = try server.delete("/v1/devices/\(device["id"] as? String ?? "")") }
            // The room shows after the next commit; a deletion is one.
            #expect(try server.post("/v1/devices", #"{"id": "fresh"}"#).status == 201)
        }
    }

    @Test func belowTheFreeDiskFloorChangesAnswer507() throws {
        try withTemporaryDirectory { directory in
            let server = try TestDaemon(
                store: .sqlite(directory: directory), configure: { $0.minFreeDiskBytes = Int.max })
            defer { server.stop() }
            let reply = try server.post("/v1/devices", "{}")
            expectProblem(reply, status: 507, code: "insufficient-storage")
            #expect(reply.string("detail")?.contains("--min-free-disk-bytes") == true)
            #expect(try server.get("/v1/devices").status == 200)
        }
    }
}
