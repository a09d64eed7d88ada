import Foundation
@testable import LifecycleHosting
import LifecycleStore
import LifecycleTesting
import Locking
import Logging
import TestSupport
import Testing

/// Devices driven alike do not reach their snapshots together: each starts its count part of the way to the
/// next one, at a point its name decides, so their encodings queue one at a time over the interval rather than
/// all in the same second. None goes further than `snapshotEvery` entries without one.
@Suite struct SnapshotSpreadTests {
    @Test func phasesCoverTheIntervalAndStayTheSame() {
        let phases = (0..<100).map { DeviceHost.snapshotPhase(of: "phone-\($0)") }
        #expect(phases.allSatisfy { (0..<1).contains($0) })
        // Every tenth of the interval holds some of a hundred devices' starting points.
        #expect(Set(phases.map { Int($0 * 10) }).count == 10)
        // The same on every run and every build: a name's phase is pinned (FNV-1a and MurmurHash3's finalizer, as
        // written out of the code by hand), not drawn from a hasher seeded per process.
        #expect(DeviceHost.snapshotPhase(of: "phone-7") == Double(7_319_433_699_934_325) / 0x1p53)
    }

    @Test func devicesDrivenAlikeReachTheirSnapshotsAtDifferentPoints() throws {
        let every = 200
        try withTemporaryDirectory { directory in
            let journal = try SnapshotCountingJournal(directory: directory)
            let server = try TestDaemon(store: .journal(journal), snapshotEvery: every)
            defer { server.stop() }
            let devices = (0..<20).map { "phone-\($0)" }
            for device in devices {
                try server.createDevice(#"{"id": "\#(device)", "iosVersion": "7.0"}"#)
                try server.createApp(#"{"id": "\#(device)-app", "device": "\#(device)", "bundleId": "com.example.a"}"#)
            }
            // Each round gives every device the same entries; the rounds in which a device had its first snapshot.
            var firsts: [String: Int] = [:]
            var entries = 0
            for round in 1...100 {
                for device in devices {
                    try server.postEvents(
                        "/v1/apps/\(device)-app/events", #"[{"type": "launch"}, {"type": "homeButton"}]"#)
                }
                DeviceHost.snapshotEncoding.sync {}
                for stream in journal.snapshotted where firsts[stream] == nil { firsts[stream] = round }
                entries = try server.get("/v1/devices/phone-0/timeline?limit=1000").items.count
                if entries > every { break }
            }
            #expect(entries > every, "the rounds gave a device \(entries) entries, not past \(every)")
            // Past `every` entries each, every device has had a snapshot.
            #expect(firsts.keys.sorted() == devices.sorted(), "\(firsts)")
            // ... in many different rounds, not all in one.
            #expect(Set(firsts.values).count >= 5, "\(firsts)")
        }
    }
}

/// A SQLite journal that notes the snapshots it was given: each one's stream and the record it covers up to.
final class SnapshotCountingJournal: Journal, @unchecked Sendable {
    private let base: SQLiteJournal
    private let given = Protected<[(stream: String, upTo: UInt64)]>([])
    var snapshotted: Set<String> { Set(given.get().map(\.stream)) }
    var snapshots: [(stream: String, upTo: UInt64)] { given.get() }

    /// Over a SQLite journal in `directory` that logs errors alone.
    init(directory: String) throws {
        var logger = Logger(label: "SnapshotCountingJournal")
        logger.logLevel = .error
        base = try SQLiteJournal(directory: directory, logger: logger)
    }

    var keepsRecords: Bool { base.keepsRecords }
    var diskUse: DiskUse? { base.diskUse }

    func append(
        stream: String, record: [UInt8], startsStream: Bool,
        durable: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        base.append(stream: stream, record: record, startsStream: startsStream, durable: durable)
    }

    func saveSnapshot(stream: String, upTo journalSeq: UInt64, state: [UInt8], durable: DurableCompletion?) {
        given.withLock { $0.append((stream, journalSeq)) }
        base.saveSnapshot(stream: stream, upTo: journalSeq, state: state, durable: durable)
    }

    func deleteStream(_ stream: String, durable: DurableCompletion?) { base.deleteStream(stream, durable: durable) }
    func deleteAll(durable: DurableCompletion?) { base.deleteAll(durable: durable) }
    func flush() { base.flush() }
    func recover(including: (String) -> Bool, each: (RecoveredStream) throws -> Void) throws {
        try base.recover(including: including, each: each)
    }
    func close() { base.close() }
}
