import Logging
import Locking
import TestSupport
import Testing

@testable import LifecycleStore

/// The lines a logger wrote: message and metadata as text.
final class CapturedLines: Sendable {
    /// The journal's writer and completion threads both log here: behind the project's lock box (a pthread mutex,
    /// which ThreadSanitizer follows; it reported the `Synchronization.Mutex` held here as a race).
    let lines = Protected<[(message: String, metadata: [String: String])]>([])

    var logger: Logger {
        Logger(label: "slow-trace-tests") { _ in CapturingHandler(captured: self) }
    }

    struct CapturingHandler: LogHandler {
        let captured: CapturedLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).mapValues { "\($0)" }
            captured.lines.withLock { $0.append((event.message.description, fields)) }
        }
    }
}

@Suite struct SlowTraceTests {
    @Test func logsOnlyWhatTookTheThresholdOrLonger() {
        let captured = CapturedLines()
        let trace = SlowTrace(milliseconds: 5, logger: captured.logger)
        trace.note("event", from: 1_000_000_000, to: 1_004_999_999)
        #expect(captured.lines.withLock { $0.isEmpty })
        trace.note(
            "event", from: 1_000_000_000, to: 1_012_345_678, phases: ["queued": 2_000_000, "durable": 10_345_678],
            detail: ["device": "d1"])
        let lines = captured.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.message == "Slow event")
        #expect(
            lines.first?.metadata == [
                "trace": "event", "start_ms": "1000.000", "end_ms": "1012.345", "duration_ms": "12.345",
                "queued_ms": "2.000", "durable_ms": "10.345", "device": "d1",
            ])
    }

    @Test func aSlowCommitIsLoggedWithWhereItsTimeWent() throws {
        let captured = CapturedLines()
        try TemporaryDirectory.with { directory in
            // A threshold of 0 logs every commit: the one of this append must be there, with its phases.
            let journal = try SQLiteJournal(
                directory: directory.path, logger: testLogger,
                trace: SlowTrace(milliseconds: 0, logger: captured.logger))
            journal.append(stream: "a", record: bytes("x")) { _ in }
            journal.flush()
            journal.close()
        }
        let lines = captured.lines.withLock { $0 }
        // The commit (the writer's part) and its group's completions (run on the delivery thread) apart.
        for (kind, keys) in [
            ("commit", ["held_ms", "write_ms", "after_ms"]), ("completions", ["waited_ms", "run_ms"]),
        ] {
            let traced = lines.first { $0.metadata["trace"] == kind }
            #expect(traced != nil, "no \(kind) traced")
            for key in ["start_ms", "end_ms", "duration_ms"] + keys {
                #expect(traced?.metadata[key] != nil, "no \(key) in \(traced?.metadata ?? [:])")
            }
            #expect(traced?.metadata["operations"] == "1")
        }
    }

    @Test func theClockIsTheMonotonicOneInMilliseconds() {
        #expect(SlowTrace.milliseconds(0) == "0.000")
        #expect(SlowTrace.milliseconds(1_234_567_890) == "1234.567")
        let first = SlowTrace.now()
        #expect(SlowTrace.now() >= first)
    }
}
