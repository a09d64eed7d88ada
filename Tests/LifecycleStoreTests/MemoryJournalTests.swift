import TestSupport
import Locking
import Testing

@testable import LifecycleStore

@Suite struct MemoryJournalTests {
    @Test func appendsAreDurableAtOnceWithIncreasingSequenceNumbers() throws {
        let journal = MemoryJournal()
        var seqs: [UInt64] = []
        for _ in 0..<3 {
            let result = Protected<[UInt64]>([])
            journal.append(stream: "a", record: [1]) { result.append(try! $0.get()) }
            seqs += result.get()
        }
        #expect(seqs == [1, 2, 3])
        #expect(try journal.recover().isEmpty)
    }
}
