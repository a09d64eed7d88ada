import Testing

@testable import LifecycleStore

@Suite struct MemoryJournalTests {
    @Test func appendsAreDurableAtOnceWithIncreasingSequenceNumbers() throws {
        let journal = MemoryJournal()
        var seqs: [UInt64] = []
        for _ in 0..<3 {
            let result = Collected<UInt64>()
            journal.append(stream: "a", record: [1]) { result.add(try! $0.get()) }
            seqs += result.values
        }
        #expect(seqs == [1, 2, 3])
        #expect(try journal.recover().isEmpty)
    }
}
