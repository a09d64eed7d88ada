import Foundation
@testable import LifecycleHosting
import LifecycleTesting
import TestSupport
import Testing

/// A device's snapshots wait for the one encoder, which may fall behind a busy daemon: a newer one takes the
/// place of one still waiting, so a device holds at most one version of itself for it, and what reaches the
/// journal is the newest.
@Suite struct SnapshotWaitingTests {
    @Test func aNewerSnapshotTakesThePlaceOfOneStillWaiting() throws {
        try withTemporaryDirectory { directory in
            let journal = try SnapshotCountingJournal(directory: directory)
            let server = try TestDaemon(store: .journal(journal), historyLimit: 40, snapshotEvery: 20)
            defer { server.stop() }
            try server.createDevice(#"{"id": "phone", "iosVersion": "7.0"}"#)
            try server.createApp(#"{"id": "mail", "device": "phone", "bundleId": "com.example.mail"}"#)
            // The encoder held while the device passes several snapshot points (one at least every 40 entries: the
            // most its app's timeline holds; 50 rounds give some 600).
            let release = DispatchSemaphore(value: 0)
            DeviceHost.snapshotEncoding.async { release.wait() }
            for _ in 0..<50 {
                try server.postEvents("/v1/apps/mail/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
            }
            let passed = journal.snapshots.count
            release.signal()
            DeviceHost.snapshotEncoding.sync {}
            #expect(passed == 0, "a snapshot was saved while the encoder was held")
            let saved = journal.snapshots.filter { $0.stream.hasSuffix("phone") }
            #expect(saved.count == 1, "\(saved)")
            // Driven again once the encoder is free, each point brings its own snapshot, covering more.
            for _ in 0..<20 {
                try server.postEvents("/v1/apps/mail/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
                DeviceHost.snapshotEncoding.sync {}
            }
            let later = journal.snapshots.filter { $0.stream.hasSuffix("phone") }.map(\.upTo)
            #expect(later.count >= 4, "\(later)")
            #expect(later == later.sorted())
        }
    }
}
