/// `UIApplicationState` plus the two states UIKit never reports: not running and suspended.
public enum AppState: String, Sendable, Codable, CaseIterable {
    case notRunning
    /// In the foreground, not receiving touches.
    case inactive
    /// In the foreground, receiving events.
    case active
    /// Running code, not visible.
    case background
    /// In memory, running nothing; the system moves an app here without telling it.
    case suspended

    /// Whether the app's code runs: only such an app ever gets a callback.
    public var isRunning: Bool {
        switch self {
        case .inactive, .active, .background: true
        case .notRunning, .suspended: false
        }
    }

    public var isForeground: Bool {
        switch self {
        case .inactive, .active: true
        case .notRunning, .background, .suspended: false
        }
    }
}
