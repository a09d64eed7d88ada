import Foundation
import Logging

/// Copies the write-ahead log back into the database on its own thread and connection.
///
/// Passive checkpoints take no lock that the writer needs, so appends go on while one runs. It runs when
/// the writer reports that enough bytes were written, and at least every `interval` while anything was.
final class Checkpointer: @unchecked Sendable {
    // Guards the flags and the byte count below; the connection is used only by the checkpoint thread.
    private let condition = NSCondition()
    private var requested = false
    private var stopping = false
    private var stopped = false
    private var dirty = false
    private var unreportedBytes = 0

    private let connection: SQLiteConnection
    private let interval: TimeInterval
    private let threshold: Int
    private let logger: Logger
    private let trace: SlowTrace?

    init(
        path: String, interval: TimeInterval, thresholdBytes: Int, logger: Logger, trace: SlowTrace? = nil
    ) throws(StoreError) {
        connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.execute("PRAGMA wal_autocheckpoint = 0", operation: "configure checkpointer")
        // A connection learns that the file is in WAL mode only when it first reads it; until then a
        // checkpoint on it does nothing at all.
        let mode = try connection.texts("PRAGMA journal_mode")
        guard mode == ["wal"] else {
            throw StoreError.io(path: path, operation: "open checkpointer", message: "journal_mode is \(mode)")
        }
        self.interval = interval
        threshold = thresholdBytes
        self.logger = logger
        self.trace = trace
        let thread = Thread { [self] in
            SlowTrace.nameThisThread("lcd.checkpoint")
            run()
        }
        thread.name = "lifecycled.store.checkpoint"
        thread.start()
    }

    /// Called by the writer after each commit, with the bytes that commit wrote.
    func noteCommitted(bytes: Int) {
        condition.lock()
        defer { condition.unlock() }
        dirty = true
        unreportedBytes += bytes
        if unreportedBytes >= threshold {
            unreportedBytes = 0
            requested = true
            condition.signal()
        }
    }

    /// Stops the thread and closes the connection; returns once both are done.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.signal()
        while !stopped { condition.wait() }
    }

    private func run() {
        condition.lock()
        while !stopping {
            if !requested { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            guard !stopping else { break }
            guard requested || dirty else { continue }
            requested = false
            dirty = false
            unreportedBytes = 0
            condition.unlock()
            let started = trace == nil ? 0 : SlowTrace.now()
            do {
                try connection.checkpoint(.passive)
                trace?.note("checkpoint", from: started, to: SlowTrace.now())
            } catch {
                logger.warning("WAL checkpoint failed", metadata: ["error": "\(error)"])
            }
            condition.lock()
        }
        connection.close()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
