import Foundation
import LifecycleStore
import Logging

/// Figures from one run of `JournalBenchmark.run`.
struct JournalBenchmarkResult: Sendable, CustomStringConvertible {
    var appenders: Int
    var appends: Int
    var appendSeconds: Double
    var appendCommits: UInt64
    var recoveredRecords: Int
    /// Opening the store that holds the records: includes `PRAGMA quick_check`, which reads every page.
    var openSeconds: Double
    var recoverSeconds: Double

    var appendsPerSecond: Double { Double(appends) / appendSeconds }
    var appendsPerCommit: Double { Double(appends) / Double(max(appendCommits, 1)) }

    var description: String {
        let rate = Int(appendsPerSecond)
        let perCommit = String(format: "%.1f", appendsPerCommit)
        let recoverTime = String(format: "%.3f", recoverSeconds)
        let openTime = String(format: "%.3f", openSeconds)
        return """
            \(appends) appends from \(appenders) appenders: \(rate) appends/s, \(appendCommits) commits \
            (\(perCommit) appends per commit); with \(recoveredRecords) records, open: \(openTime) s, \
            recover(): \(recoverTime) s
            """
    }
}

/// Measures the journal on the real disk: throughput of waiting appenders, and recovery time.
enum JournalBenchmark {
    /// Runs both measurements in fresh stores under `directory`, which is left for the caller to remove.
    ///
    /// Each of `appenders` threads appends `appendsPerAppender` records one after another, waiting for
    /// each to be durable, as a request handler would. Then `recordsToRecover` records of `recordSize`
    /// bytes, spread over 100 streams, are appended and `recover()` is timed in a new instance.
    static func run(
        directory: String,
        appenders: Int = 64,
        appendsPerAppender: Int = 200,
        recordsToRecover: Int = 1_000_000,
        recordSize: Int = 32,
        logger: Logger = Logger(label: "lifecycled.store.benchmark")
    ) throws -> JournalBenchmarkResult {
        let appendDirectory = URL(fileURLWithPath: directory).appendingPathComponent("appends").path
        let (appendSeconds, commits) = try measureAppends(
            directory: appendDirectory,
            appenders: appenders,
            appendsPerAppender: appendsPerAppender,
            recordSize: recordSize,
            logger: logger
        )
        let recoverDirectory = URL(fileURLWithPath: directory).appendingPathComponent("recover").path
        let (recovered, openSeconds, recoverSeconds) = try measureRecovery(
            directory: recoverDirectory,
            records: recordsToRecover,
            recordSize: recordSize,
            logger: logger
        )
        return JournalBenchmarkResult(
            appenders: appenders,
            appends: appenders * appendsPerAppender,
            appendSeconds: appendSeconds,
            appendCommits: commits,
            recoveredRecords: recovered,
            openSeconds: openSeconds,
            recoverSeconds: recoverSeconds
        )
    }

    private static func measureAppends(
        directory: String,
        appenders: Int,
        appendsPerAppender: Int,
        recordSize: Int,
        logger: Logger
    ) throws(StoreError) -> (seconds: Double, commits: UInt64) {
        let journal = try SQLiteJournal(directory: directory, logger: logger)
        defer { journal.close() }
        let record = [UInt8](repeating: 0x2A, count: recordSize)
        let done = DispatchGroup()
        let start = ContinuousClock.now
        for appender in 0..<appenders {
            done.enter()
            // Plain threads, not Dispatch workers: every appender blocks on its own durability wait.
            Thread {
                let durable = DispatchSemaphore(value: 0)
                for _ in 0..<appendsPerAppender {
                    journal.append(stream: "device-\(appender)", record: record) { _ in durable.signal() }
                    durable.wait()
                }
                done.leave()
            }.start()
        }
        done.wait()
        return (seconds(ContinuousClock.now - start), journal.commitCount)
    }

    private static func measureRecovery(
        directory: String,
        records: Int,
        recordSize: Int,
        logger: Logger
    ) throws -> (records: Int, openSeconds: Double, recoverSeconds: Double) {
        let writing = try SQLiteJournal(directory: directory, logger: logger)
        let record = [UInt8](repeating: 0x2A, count: recordSize)
        for index in 0..<records {
            writing.append(stream: "device-\(index % 100)", record: record) { _ in }
        }
        writing.close()

        let opening = ContinuousClock.now
        let reading = try SQLiteJournal(directory: directory, logger: logger)
        defer { reading.close() }
        let start = ContinuousClock.now
        let recovered = try reading.recover()
        let end = ContinuousClock.now
        return (recovered.reduce(0) { $0 + $1.records.count }, seconds(start - opening), seconds(end - start))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
