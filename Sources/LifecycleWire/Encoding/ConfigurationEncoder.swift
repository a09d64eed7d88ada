package import LifecycleCore
import LifecycleJSON

/// Configurations as the requests that create them: `POST /v1/devices` and `POST /v1/apps` bodies that
/// `DeviceRequest` and `AppRequest` decode back into the same values (what an export replays).
package enum ConfigurationEncoder {
    /// A `POST /v1/devices` body; `clockMode` replaces the configured clock (an export replays a realtime
    /// clock as a manual one).
    package static func device(id: String, _ configuration: DeviceConfiguration, clockMode: ClockMode? = nil)
        -> JSONValue
    {
        var w = JSONWriter(reservingCapacity: 256)
        w.beginObject()
        w.field("id")
        w.string(id)
        SnapshotEncoder.configurationMembers(configuration, clockMode: clockMode, into: &w)
        if let delay = configuration.sceneDisconnectDelay {
            w.field("sceneDisconnectDelay")
            w.number(delay)
        }
        if !configuration.settings.isEmpty {
            w.field("settings")
            w.value(.object(configuration.settings))
        }
        w.endObject()
        return parsed(w)
    }

    /// A `POST /v1/apps` body.
    package static func app(id: String, device: String, _ configuration: AppConfiguration) -> JSONValue {
        var w = JSONWriter(reservingCapacity: 512)
        w.beginObject()
        w.field("id")
        w.string(id)
        w.field("device")
        w.string(device)
        w.field("bundleId")
        w.string(configuration.bundleId)
        if let version = configuration.iosVersion {
            w.field("iosVersion")
            w.version(version)
        }
        if let version = configuration.sdkVersion {
            w.field("sdkVersion")
            w.version(version)
        }
        w.field("memoryMB")
        w.int(configuration.memoryMB)
        if let views = configuration.sensitiveViews {
            w.field("sensitiveViews")
            w.beginArray()
            for view in views { w.string(view) }
            w.endArray()
        }
        if let state = configuration.restorableState {
            w.field("restorableState")
            w.value(state)
        }
        w.field("info")
        SnapshotEncoder.info(configuration.info, into: &w)
        w.field("delegate")
        SnapshotEncoder.delegate(configuration.delegate, into: &w)
        w.endObject()
        return parsed(w)
    }

    /// What the writer wrote, as a value (it wrote JSON).
    private static func parsed(_ w: borrowing JSONWriter) -> JSONValue {
        (try? JSONParser.parse(w.bytes)) ?? .null
    }
}
