import Foundation
import LifecycleCore
@testable import LifecycleHosting
import LifecyclePersistence
import LifecycleTesting
import Locking
import Testing

@testable import LifecycleServer

/// Snapshots round-trip: what is saved is what loads, the core state, every retained entry (with what
/// was evicted before it) and every remembered answer.
@Suite struct DeviceSnapshotTests {
    static func summary(_ ring: EntryRing) -> [String] {
        ["evictedThrough \(ring.evictedThrough)"]
            + ring.retained.map {
                "\($0.seq) \($0.isCallback) \($0.isNotification) \(String(describing: $0.entry))"
            }
    }

    /// Versions 1 to 3 load too: `Tests/Fixtures/data-dir-1`, `data-dir-2` and `data-dir-3` hold snapshots of each, opened
    /// by `DataDirectoryFixtureTests` (their idempotency keys, scoped to paths before 3, answer by replaying).
    @Test func aSnapshotLoadsAsItWasSaved() throws {
        try withDaemon(historyLimit: 8) { server in
            try server.createDevice(#"{"id": "d", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "a", "device": "d", "bundleId": "com.example.a"}"#)
            try server.createApp(#"{"id": "b", "device": "d", "bundleId": "com.example.b"}"#)
            try server.postEvents("/v1/apps/a/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            try server.postEvents(
                "/v1/apps/b/events", #"[{"type": "launch"}, {"type": "beginBackgroundTask", "duration": 5}]"#)
            try server.postEvents(
                "/v1/devices/d/events", #"[{"type": "lock"}, {"type": "advanceTime", "seconds": 2.5}]"#)
            // A deleted app's entries stay in the device's timeline, with their app.
            try server.createApp(#"{"id": "gone", "device": "d", "bundleId": "com.example.gone"}"#)
            try server.postEvents("/v1/apps/gone/events", #"{"type": "launch", "background": true}"#)
            #expect(try server.delete("/v1/apps/gone").status == 204)
            let host = try #require(server.service.registry.device("d"))
            let published = host.shared.withLock { $0 }
            let answers: [(key: IdempotencyKey, answer: IdempotencyCache.Answer)] = [
                (IdempotencyKey(app: "a", key: "k1"), .init(fingerprint: .max, body: Array(#"{"x":1}"#.utf8))),
                (IdempotencyKey(app: nil, key: "k2"), .init(fingerprint: 7, body: [])),
            ]
            let saved = DeviceSnapshot(
                anchorWall: 1_763_900_000.25, device: published.device, deviceTimeline: published.deviceTimeline,
                appTimelines: published.appTimelines, idempotency: answers)
            let bytes = try saved.encoded()
            #expect(bytes.starts(with: Array("LCSN".utf8) + [StoredSnapshot.version]))
            #expect(StoredSnapshot.version == 4)

            let loaded = try DeviceSnapshot(bytes: bytes, historyLimit: 8)
            #expect(loaded.anchorWall == saved.anchorWall)
            #expect(loaded.device == saved.device)
            #expect(Self.summary(loaded.deviceTimeline) == Self.summary(saved.deviceTimeline))
            #expect(saved.deviceTimeline.evictedThrough > 0, "the history limit evicted nothing: a weaker test")
            #expect(saved.deviceTimeline.retained.contains { $0.app == "gone" })
            #expect(loaded.appTimelines.keys.sorted() == ["a", "b"])
            for (app, ring) in saved.appTimelines {
                #expect(Self.summary(try #require(loaded.appTimelines[app])) == Self.summary(ring), "\(app)")
            }
            #expect(loaded.idempotency.map(\.key) == answers.map(\.key))
            #expect(loaded.idempotency.map(\.answer.fingerprint) == answers.map(\.answer.fingerprint))
            #expect(loaded.idempotency.map(\.answer.body) == answers.map(\.answer.body))
        }
    }

    @Test func aNewerSnapshotVersionIsRefusedByName() throws {
        #expect(throws: StoredSnapshot.UnknownVersion.self) {
            try DeviceSnapshot(bytes: Array("LCSN".utf8) + [StoredSnapshot.version + 1, 0, 0, 0, 0], historyLimit: 8)
        }
    }

    /// Compressed bytes that do not inflate to the length they claim are a corrupt snapshot, not a crash.
    @Test func aDamagedCompressedSnapshotIsRefused() throws {
        let device = try Device(id: "d", configuration: DeviceConfiguration())
        let saved = DeviceSnapshot(
            anchorWall: 0, device: device, deviceTimeline: EntryRing(limit: 8), appTimelines: [:], idempotency: [])
        let bytes = try saved.encoded()
        #expect(try DeviceSnapshot(bytes: bytes, historyLimit: 8).device == device)
        var wrongLength = bytes
        wrongLength[5] &+= 1
        var cut = bytes
        cut.removeLast(4)
        var flipped = bytes
        flipped[bytes.count / 2 + 7] ^= 0xFF
        // A length no deflated text of this size can have: refused before anything that large is allocated.
        var huge = bytes
        huge[9] = 0x7F
        for damaged in [wrongLength, cut, flipped, huge, Array(bytes.prefix(9))] {
            #expect(throws: CorruptRecord.self) {
                try DeviceSnapshot(bytes: damaged, historyLimit: 8)
            }
        }
    }
}
