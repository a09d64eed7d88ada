/// A device change that apps hear about as a notification (LIFECYCLE §7, Apple's Table 4-1).
public enum ChangeKind: String, Sendable, Codable, CaseIterable {
    case orientation, locale, significantTime, batteryLevel, batteryState, proximity, accessory, screen
    case screenMode, settings, ubiquityIdentity, statusBarFrame
    /// The device's Background App Refresh switch and Low Power Mode (LIFECYCLE §6, "The wake policy").
    case backgroundAppRefresh, lowPowerMode

    /// Kinds whose value the device keeps, so a queue can tell a net change from none.
    public static let settable: [ChangeKind] = allCases.filter(\.hasValue)

    /// Whether the kind is a setting with a current value; the others are moments.
    public var hasValue: Bool {
        switch self {
        case .significantTime, .statusBarFrame: false
        default: true
        }
    }

    /// The value a new device starts with.
    public var initialValue: JSONValue? {
        switch self {
        case .orientation: "portrait"
        case .locale: "en_US"
        case .batteryLevel: 1.0
        case .batteryState: "unplugged"
        case .proximity: false
        case .accessory, .screen: "disconnected"
        case .screenMode: "default"
        case .settings: .object([:])
        case .ubiquityIdentity: .null
        case .backgroundAppRefresh: "on"
        case .lowPowerMode: false
        case .significantTime, .statusBarFrame: nil
        }
    }

    /// The notification an app receives for the change to `value`.
    public func notificationName(for value: JSONValue?) -> String {
        switch self {
        case .orientation: "UIDeviceOrientationDidChangeNotification"
        case .locale: "NSCurrentLocaleDidChangeNotification"
        case .significantTime: "UIApplicationSignificantTimeChangeNotification"
        case .batteryLevel: "UIDeviceBatteryLevelDidChangeNotification"
        case .batteryState: "UIDeviceBatteryStateDidChangeNotification"
        case .proximity: "UIDeviceProximityStateDidChangeNotification"
        case .accessory:
            value == "connected" ? "EAAccessoryDidConnectNotification" : "EAAccessoryDidDisconnectNotification"
        case .screen: value == "connected" ? "UIScreenDidConnectNotification" : "UIScreenDidDisconnectNotification"
        case .screenMode: "UIScreenModeDidChangeNotification"
        case .settings: "NSUserDefaultsDidChangeNotification"
        case .ubiquityIdentity: "NSUbiquityIdentityDidChangeNotification"
        case .statusBarFrame: "UIApplicationDidChangeStatusBarFrameNotification"
        case .backgroundAppRefresh: WakePolicy.statusNotification
        case .lowPowerMode: "NSProcessInfoPowerStateDidChangeNotification"
        }
    }

    static let orientations: [String] = [
        "unknown", "portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight", "faceUp", "faceDown",
    ]
    static let batteryStates: [String] = ["unknown", "unplugged", "charging", "full"]
    static let connections: [String] = ["connected", "disconnected"]
    static let refreshSwitch: [String] = ["on", "off", "restricted"]

    /// Why `value` is not a valid value for this kind, as the rejection a client sees.
    public func validationFailure(for value: JSONValue?, field: String = "value") -> Rejection? {
        func oneOf(_ allowed: [String]) -> Rejection? {
            if let text = value?.stringValue, allowed.contains(text) { return nil }
            return .invalidField(field, "\(rawValue) takes one of \(allowed.joined(separator: ", "))", allowed: allowed)
        }
        switch self {
        case .orientation: return oneOf(Self.orientations)
        case .batteryState: return oneOf(Self.batteryStates)
        case .accessory, .screen: return oneOf(Self.connections)
        case .backgroundAppRefresh: return oneOf(Self.refreshSwitch)
        case .batteryLevel:
            if let level = value?.numberValue, (0...1).contains(level) { return nil }
            return .invalidField(field, "batteryLevel takes a number from 0 to 1")
        case .proximity:
            if value?.boolValue != nil { return nil }
            return .invalidField(field, "proximity takes true (near) or false (far)")
        case .lowPowerMode:
            if value?.boolValue != nil { return nil }
            return .invalidField(field, "lowPowerMode takes true (on) or false (off)")
        case .locale, .screenMode:
            if let text = value?.stringValue, !text.isEmpty { return nil }
            return .invalidField(field, "\(rawValue) takes a non-empty string")
        case .settings, .ubiquityIdentity:
            if value != nil { return nil }
            return .invalidField(field, "\(rawValue) takes a value (any JSON)")
        case .significantTime, .statusBarFrame:
            return nil
        }
    }
}
