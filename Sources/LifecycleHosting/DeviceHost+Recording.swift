import Dispatch

/// How a host keeps its `InputRecording`: each input's step, charged to the device's budget.
extension DeviceHost {
    /// Whether the next input is to be recorded (its record encoded even when the journal keeps none).
    var isRecording: Bool { recordingLeft != nil }

    /// What to do with `record` (the input's record, or empty when not recording), charged to the device's
    /// budget. Runs on the queue, or on the recovering thread.
    func recordingStep(_ record: [UInt8]) -> InputRecording.Step {
        guard let left = recordingLeft else { return .none }
        guard !record.isEmpty, record.count <= left else {
            recordingLeft = nil
            return .stop
        }
        recordingLeft = left - record.count
        return .keep(record)
    }
}

extension DeviceHost {
    /// Records no more inputs (the daemon's budget took the recording).
    func stopRecording() {
        queue.async { [self] in recordingLeft = nil }
    }
}

extension PublishedDevice {
    /// What the device holds against the daemon's budget: its entries, its timelines' slots and its recording.
    var heldBytes: Int { retainedBytes + slotBytes + recording.heldBytes }

    mutating func record(_ step: InputRecording.Step) {
        switch step {
        case .keep(let record): recording.append(record)
        case .stop: recording.stop()
        case .none: break
        }
    }
}
