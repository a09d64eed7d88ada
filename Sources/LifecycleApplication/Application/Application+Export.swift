import LifecycleCore
import LifecycleHosting
package import LifecycleWire
import Locking

/// What an export of a namespace writes: its devices' recorded inputs, each from its creation.
extension Application {
    /// The devices of `space` an export replays, with their inputs and the state those made: the device of the
    /// app `app` (which, with `device` too, must be on that device), the device `device`, or every device, by
    /// id. `409 not-exportable` names the devices whose recordings no longer start at their creation
    /// (`--recording-bytes`), or says that there is no device. Each device's lock is held only to copy its
    /// values.
    package func exportedDevices(in space: Namespace, app: String?, device deviceID: String?) throws(APIError)
        -> [RecordedDevice]
    {
        let hosts: [DeviceHost]
        if let app {
            let host = try appHost(app, in: space)
            // With both, the app is exported, and must be on that device.
            if let deviceID, host.id != deviceID { throw .notFound("no app \(app) on device \(deviceID)") }
            hosts = [host]
        } else if let deviceID {
            hosts = [try deviceHost(deviceID, in: space)]
        } else {
            hosts = space.registry.allDevices().sorted { $0.id < $1.id }
        }
        var recorded: [RecordedDevice] = []
        var unrecorded: [String] = []
        for host in hosts {
            let read = host.shared.withLock { shared -> (InputRecording, Device, [String: EntryRing])? in
                guard !shared.gone, shared.recording.complete else { return nil }
                // The state its inputs made, not a realtime clock's reading now (`current`): deadlines that passed
                // since are in no input yet, and the replay must end where the expectations say.
                return (shared.recording, shared.device, shared.appTimelines)
            }
            // The records are copied out of the recording here, outside the device's lock.
            if let (recording, device, timelines) = read {
                recorded.append(
                    RecordedDevice(id: host.id, records: recording.records, device: device, timelines: timelines))
            } else if !host.shared.withLock(\.gone) {
                unrecorded.append(host.id)
            }
        }
        if !unrecorded.isEmpty {
            throw .notExportable(
                "these devices accepted more than \(options.recordingBytes) bytes of inputs (--recording-bytes), gave "
                    + "their recording up to the daemon's budget (--memory-bytes), or were saved before their "
                    + "inputs were recorded, so no scenario replays them from their creation: "
                    + unrecorded.joined(separator: ", "),
                devices: unrecorded)
        }
        // A scenario has at least one step: an empty namespace (or one emptied meanwhile) has nothing to export.
        if recorded.isEmpty {
            throw .notExportable(
                "the namespace \(space.name) holds no device: there is nothing to replay, and a scenario has "
                    + "at least one step", devices: [])
        }
        return recorded
    }
}
