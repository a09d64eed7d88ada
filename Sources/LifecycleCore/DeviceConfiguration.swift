/// How a device's clock moves.
public enum ClockMode: String, Sendable, Codable, CaseIterable {
    /// Time moves only by `advanceTime` and by callback durations: deterministic.
    case manual
    /// Time follows the wall clock times `speed`; the driver feeds it in as `now`.
    case realtime
}

/// What a client chooses when it creates a device. Every field has the API's default.
public struct DeviceConfiguration: Equatable, Sendable, Codable {
    public var iosVersion = Version(17, 0)
    public var multitasking = true
    public var passcode = false
    public var memoryMB = 1024
    public var clockMode = ClockMode.manual
    public var clockSpeed = 1.0
    /// Seconds an idle background app waits before the system suspends it.
    public var suspendDelay = 0.0
    /// Starting values of the device settings that `change` events move (orientation, locale, ...).
    public var settings: [String: JSONValue] = [:]

    public init() {}

    /// The first rule this configuration breaks, as the rejection a client sees.
    public func validationFailure() -> Rejection? {
        if !(1...1_048_576).contains(memoryMB) {
            return .invalidField("memoryMB", "memoryMB must be a whole number from 1 to 1048576, not \(memoryMB)")
        }
        if !(clockSpeed > 0 && clockSpeed <= 1_000_000) {
            return .invalidField("clock.speed", "clock.speed must be a number above 0 and at most 1000000")
        }
        if !(suspendDelay >= 0 && suspendDelay <= 86_400) {
            return .invalidField("suspendDelay", "suspendDelay must be from 0 to 86400 seconds")
        }
        for (kind, value) in settings {
            guard let changeKind = ChangeKind(rawValue: kind) else {
                return .invalidField(
                    "settings.\(kind)", "settings.\(kind) is not a device setting",
                    allowed: ChangeKind.settable.map(\.rawValue))
            }
            if let failure = changeKind.validationFailure(for: value, field: "settings.\(kind)") { return failure }
        }
        return nil
    }
}
