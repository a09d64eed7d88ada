import Dispatch
import Locking
import Testing

@Suite struct OnceTests {
    @Test func ofManyThreadsFiringOnlyTheFirstRunsTheAction() {
        let ran = Protected<[Int]>([])
        let once = Once<Int> { value in ran.withLock { $0.append(value) } }
        let accepted = Protected<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if once.fire(index) { accepted.withLock { $0.append(index) } }
        }
        #expect(accepted.withLock { $0 }.count == 1)
        #expect(ran.withLock { $0 } == accepted.withLock { $0 })
        #expect(once.hasFired)
        #expect(!once.fire(99))
        #expect(ran.withLock { $0 }.count == 1)
    }

    @Test func withNoActionItTellsWhetherItWasTheFirst() {
        let once = Once<Void>()
        #expect(!once.hasFired)
        #expect(once.fire(()))
        #expect(!once.fire(()))
    }

    @Test func whatTheActionCapturedIsReleasedOnceItRan() {
        final class Tracked: Sendable {}
        weak var tracked: Tracked?
        let once: Once<Int>
        do {
            let value = Tracked()
            tracked = value
            once = Once { _ in _ = value }
        }
        #expect(tracked != nil)
        once.fire(1)
        #expect(tracked == nil)
    }
}
