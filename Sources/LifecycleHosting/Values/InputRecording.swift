/// The inputs a device accepted, from its creation, in order, as journal records: what an export replays.
///
/// Bounded by bytes (`--recording-bytes`, kept by the host, `DeviceHost.recordingLeft`): a device that accepts
/// more stops recording and drops what it had, since a replay must start from the device's creation. So does
/// a device restored from a snapshot saved without its inputs (before recordings were kept).
package struct InputRecording: Sendable {
    /// The records, oldest first (`JournalRecordFormat`); empty once incomplete.
    package private(set) var records: [[UInt8]] = []
    package private(set) var bytes = 0
    /// False once an input was not kept: the recording no longer replays the device from its creation.
    package private(set) var complete: Bool

    package init(records: [[UInt8]] = [], complete: Bool = true) {
        self.complete = complete
        if complete {
            self.records = records
            bytes = records.reduce(0) { $0 + $1.count }
        }
    }

    mutating func append(_ record: [UInt8]) {
        guard complete else { return }
        records.append(record)
        bytes += record.count
    }

    /// Stops recording: what was kept no longer replays the device.
    mutating func stop() {
        complete = false
        records = []
        bytes = 0
    }

    /// What one accepted input does to a recording.
    enum Step {
        case keep([UInt8])
        case stop
        case none
    }
}
