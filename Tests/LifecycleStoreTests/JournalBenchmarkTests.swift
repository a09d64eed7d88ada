import Foundation
import TestSupport
import Testing

@testable import LifecycleStore

@Suite struct JournalBenchmarkTests {
    /// A small run, so the measurement code stays working; prints the figures, asserts nothing on time.
    @Test func aSmallRunCountsEveryAppendAndRecoversEveryRecord() throws {
        try TemporaryDirectory.with { directory in
            let result = try JournalBenchmark.run(
                directory: directory.path,
                appenders: 8,
                appendsPerAppender: 10,
                recordsToRecover: 5_000
            )
            print("journal benchmark (small): \(result)")
            #expect(result.appends == 80)
            #expect(result.recoveredRecords == 5_000)
        }
    }

    /// The full measurement: LIFECYCLE_STORE_BENCHMARK=1 swift test --filter JournalBenchmarkTests
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LIFECYCLE_STORE_BENCHMARK"] == "1"))
    func fullRunPrintsFigures() throws {
        try TemporaryDirectory.with { directory in
            let result = try JournalBenchmark.run(directory: directory.path)
            print("journal benchmark: \(result)")
            #expect(result.recoveredRecords == 1_000_000)
        }
    }
}
