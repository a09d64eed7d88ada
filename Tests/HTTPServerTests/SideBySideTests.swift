import Foundation
import Locking
import Testing

/// `sideBySide`: every index run once, the results in their order, on threads that do run at the same time.
@Suite struct SideBySideTests {
    @Test func everyIndexRunsOnceAndTheResultsComeInOrder() {
        let runs = Protected([Int](repeating: 0, count: 50))
        let results = sideBySide(50, threads: 4) { index in
            runs.withLock { $0[index] += 1 }
            return index * index
        }
        #expect(results == (0..<50).map { $0 * $0 })
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 50))
        #expect(sideBySide(0, threads: 4) { $0 }.isEmpty)
        #expect(sideBySide(3, threads: 10) { $0 } == [0, 1, 2])
    }

    /// Two bodies that each wait for the other to have started end only if they run at the same time.
    @Test func twoThreadsRunTwoBodiesAtOnce() {
        let started = DispatchSemaphore(value: 0)
        let other = DispatchSemaphore(value: 0)
        let met = sideBySide(2, threads: 2) { index in
            (index == 0 ? started : other).signal()
            return (index == 0 ? other : started).wait(timeout: .now() + 10) == .success
        }
        #expect(met == [true, true])
        // On one thread they cannot meet: the first waits out its time alone.
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let alone = sideBySide(2, threads: 1) { index in
            (index == 0 ? first : second).signal()
            return (index == 0 ? second : first).wait(timeout: .now() + 0.2) == .success
        }
        #expect(alone == [false, true])
    }
}
