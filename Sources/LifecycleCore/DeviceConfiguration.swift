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
    /// `phone` or `pad`: multiple scenes need a pad (LIFECYCLE §11.1).
    public var idiom = Idiom.phone
    /// Seconds a scene may stay in the background of a living process before the system disconnects it;
    /// nil: never on its own (§11.9).
    public var sceneDisconnectDelay: Double?

    public init() {}

    /// Megabytes a device (or an app) may be given.
    public static let memoryRange = 1...1_048_576
    /// Seconds an idle background app may wait before it is suspended.
    public static let suspendDelayRange = 0.0...86_400
    /// Seconds a background scene may stay connected before the system disconnects it.
    public static let sceneDisconnectDelayRange = 0.0...86_400

    /// Devices saved before scenes existed have no `idiom`: they are phones.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iosVersion = try c.decode(Version.self, forKey: .iosVersion)
        multitasking = try c.decode(Bool.self, forKey: .multitasking)
        passcode = try c.decode(Bool.self, forKey: .passcode)
        memoryMB = try c.decode(Int.self, forKey: .memoryMB)
        clockMode = try c.decode(ClockMode.self, forKey: .clockMode)
        clockSpeed = try c.decode(Double.self, forKey: .clockSpeed)
        suspendDelay = try c.decode(Double.self, forKey: .suspendDelay)
        settings = try c.decode([String: JSONValue].self, forKey: .settings)
        idiom = try c.decodeIfPresent(Idiom.self, forKey: .idiom) ?? .phone
        sceneDisconnectDelay = try c.decodeIfPresent(Double.self, forKey: .sceneDisconnectDelay)
    }

    /// The first rule this configuration breaks, as the rejection a client sees.
    public func validationFailure() -> Rejection? {
        if !Self.memoryRange.contains(memoryMB) {
            return .invalidField("memoryMB", "memoryMB must be a whole number from 1 to 1048576, not \(memoryMB)")
        }
        if !(clockSpeed > 0 && clockSpeed <= 1_000_000) {
            return .invalidField("clock.speed", "clock.speed must be a number above 0 and at most 1000000")
        }
        if !Self.suspendDelayRange.contains(suspendDelay) {
            return .invalidField("suspendDelay", "suspendDelay must be from 0 to 86400 seconds")
        }
        if let delay = sceneDisconnectDelay, !(delay >= 0 && delay <= 86_400) {
            return .invalidField(
                "sceneDisconnectDelay", "sceneDisconnectDelay must be null or from 0 to 86400 seconds")
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
