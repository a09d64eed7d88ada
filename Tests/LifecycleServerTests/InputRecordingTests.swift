import Testing

@testable import LifecycleHosting

/// A device's recorded inputs, kept end to end in chunks: each record reads back as it was appended.
@Suite struct InputRecordingTests {
    static let records: [[UInt8]] = [Array("first".utf8), [], Array(repeating: 7, count: 300), [0xFF]]

    @Test func recordsReadBackInOrderAndCountTheirBytes() {
        var recording = InputRecording()
        for record in Self.records { recording.append(record) }
        #expect(recording.records == Self.records)
        #expect(recording.count == 4)
        #expect(recording.bytes == 306)
        // The budget counts the chunk and the offsets as allocated, at least the records' bytes.
        #expect(recording.heldBytes >= 306 + 4 * MemoryLayout<UInt32>.stride)
        #expect(recording.complete)
        #expect(InputRecording(records: Self.records).records == Self.records)
    }

    /// Records fill a chunk and go on in the next, none split between two; one larger than a chunk has one of its
    /// own. What the budget counts stays near the records' bytes: the full chunks as they are, the last one
    /// grown by doubling.
    @Test func recordsGoOnAcrossChunksAndTheBudgetCountsThemAsAllocated() {
        var recording = InputRecording()
        var expected: [[UInt8]] = []
        for index in 0..<5_000 {
            let record = (0..<(40 + index % 90)).map { UInt8(truncatingIfNeeded: index &+ $0) }
            recording.append(record)
            expected.append(record)
        }
        let large = Array(repeating: UInt8(9), count: InputRecording.chunkBytes + 1)
        recording.append(large)
        recording.append([1])
        expected += [large, [1]]
        #expect(recording.records == expected)
        #expect(recording.count == expected.count)
        let bytes = expected.reduce(0) { $0 + $1.count }
        #expect(recording.bytes == bytes)
        #expect(recording.heldBytes >= bytes + expected.count * MemoryLayout<UInt32>.stride)
        #expect(recording.heldBytes <= 2 * bytes)
        #expect(InputRecording(records: expected).records == expected)
    }

    /// Readers copy the recording under the device's lock and read it after: the device's next appends and a
    /// stop do not reach their copy.
    @Test func aCopyIsUnchangedByLaterAppendsAndAStop() {
        var recording = InputRecording(records: Self.records)
        let copy = recording
        recording.append(Array("later".utf8))
        #expect(recording.count == 5)
        #expect(copy.records == Self.records)
        recording.stop()
        #expect(copy.records == Self.records)
        #expect(copy.complete)
    }

    @Test func aStoppedRecordingKeepsNothingAndTakesNoMore() {
        var recording = InputRecording(records: Self.records)
        recording.stop()
        recording.append([1, 2, 3])
        #expect(!recording.complete)
        #expect(recording.records.isEmpty)
        #expect(recording.bytes == 0)
        #expect(recording.heldBytes == 0)
        #expect(InputRecording(records: Self.records, complete: false).records.isEmpty)
    }
}
