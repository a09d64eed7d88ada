package import LifecycleCore

/// `POST /v1/devices`: every field optional.
package struct DeviceRequest {
    package var id: String?
    package var configuration: DeviceConfiguration

    package static let fields = [
        "id", "iosVersion", "multitasking", "passcode", "memoryMB", "clock", "suspendDelay", "settings", "idiom",
        "sceneDisconnectDelay",
    ]

    /// `replaying`: a journaled body, read as it was accepted (see `FieldReader.replaying`).
    package init(_ body: JSONValue, replaying: Bool = false) throws(APIError) {
        let reader = try FieldReader(body, replaying: replaying)
        try reader.rejectUnknown(allowed: Self.fields)
        id = try reader.string("id")
        if let id { try Identifier.validate(id, field: "id") }
        var configuration = DeviceConfiguration()
        if let version = try reader.version("iosVersion") { configuration.iosVersion = version }
        if let flag = try reader.bool("multitasking") { configuration.multitasking = flag }
        if let flag = try reader.bool("passcode") { configuration.passcode = flag }
        if let memory = try reader.integer("memoryMB", in: DeviceConfiguration.memoryRange) {
            configuration.memoryMB = memory
        }
        if let delay = try reader.number("suspendDelay", in: DeviceConfiguration.suspendDelayRange) {
            configuration.suspendDelay = delay
        }
        if let idiom = try reader.enumeration("idiom", Idiom.self) { configuration.idiom = idiom }
        // null is a value here, "never on its own" (API.md), as the device snapshot shows it.
        if reader.value("sceneDisconnectDelay") != .null {
            configuration.sceneDisconnectDelay = try reader.number(
                "sceneDisconnectDelay", in: DeviceConfiguration.sceneDisconnectDelayRange)
        }
        if let clock = try reader.object("clock") {
            try clock.rejectUnknown(allowed: ["mode", "speed"])
            if let mode = try clock.enumeration("mode", ClockMode.self) { configuration.clockMode = mode }
            if let speed = try clock.number("speed") { configuration.clockSpeed = speed }
        }
        if let settings = try reader.object("settings") { configuration.settings = settings.members }
        if let failure = configuration.validationFailure() { throw APIError(failure) }
        // significantTime and statusBarFrame are moments, not settings (accepted as settings before).
        if !replaying,
            let kind = configuration.settings.keys.sorted().first(where: { ChangeKind(rawValue: $0)?.hasValue == false }
            )
        {
            throw APIError.invalidField(
                "settings.\(kind)", "settings.\(kind) is not a device setting",
                allowed: ChangeKind.settable.map(\.rawValue)
            ).suggesting(for: kind, among: ChangeKind.settable.map(\.rawValue))
        }
        self.configuration = configuration
    }
}
