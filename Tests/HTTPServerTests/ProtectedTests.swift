import Dispatch
import Locking
import Testing

@Suite struct ProtectedTests {
    @Test func copiesShareOneValue() {
        let first = Protected([1])
        let second = first
        second.withLock { $0.append(2) }
        #expect(first.withLock { $0 } == [1, 2])
    }

    @Test func updatesFromManyThreadsAreNotLost() {
        let counter = Protected(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func valueIsReleasedWithTheLastCopy() {
        final class Tracked: Sendable {}
        weak var tracked: Tracked?
        do {
            let value = Tracked()
            tracked = value
            let protected = Protected(Optional(value))
            #expect(protected.withLock { $0 != nil })
        }
        #expect(tracked == nil)
    }

    @Test func errorsThrownInsideLeaveTheLockFree() {
        struct Refused: Error {}
        let protected = Protected(0)
        #expect(throws: Refused.self) { try protected.withLock { _ throws(Refused) in throw Refused() } }
        #expect(
            protected.withLock {
                $0 += 1; return $0
            } == 1)
    }
}
