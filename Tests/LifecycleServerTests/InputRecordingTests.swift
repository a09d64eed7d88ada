import Testing

@testable import LifecycleHosting

/// A device's recorded inputs, kept end to end in one buffer: each record reads back as it was appended.
@Suite struct InputRecordingTests {
    static let records: [[UInt8]] = [Array("first".utf8), [], Array(repeating: 7, count: 300), [0xFF]]

    @Test func recordsReadBackInOrderAndCountTheirBytes() {
        var recording = InputRecording()
        for record in Self.records { recording.append(record) }
        #expect(recording.records == Self.records)
        #expect(recording.count == 4)
        #expect(recording.bytes == 306)
        // The budget counts the buffer and the offsets as allocated, at least the records' bytes.
        #expect(recording.heldBytes >= 306 + 4 * MemoryLayout<Int>.stride)
        #expect(recording.complete)
        #expect(InputRecording(records: Self.records).records == Self.records)
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
