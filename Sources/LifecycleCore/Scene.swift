/// `UIScene.ActivationState`, plus `unattached` for a session with no connected scene (LIFECYCLE §11.2).
public enum SceneState: String, Sendable, Codable, CaseIterable {
    case unattached
    case background
    case foregroundInactive
    case foregroundActive

    public var isForeground: Bool { self == .foregroundInactive || self == .foregroundActive }
    public var isConnected: Bool { self != .unattached }
}

/// `UISceneSession`: the persistent record of one instance of an app's UI; it outlives the scene,
/// the process and a reboot until it is discarded (LIFECYCLE §11).
public struct SceneSession: Equatable, Sendable, Codable {
    public let id: String
    /// The configuration name; nil when the scene has no configuration (§11.1).
    public let configuration: String?
    public let role: String
    public internal(set) var state = SceneState.unattached
    public internal(set) var stateSince: Double
    /// Closed while the app was not running: discarded at the next launch (§11.9).
    public internal(set) var pendingDiscard = false
    /// Whether a scene delegate gets this scene's callbacks.
    let hasDelegate: Bool
    /// Set when configurationForConnecting ran for it: a reconnect does not ask again.
    var configured = false
    /// When the scene last entered `background`: `sceneDisconnectDelay` counts from it.
    var backgroundSince: Double?
    /// Increases each time a scene of the app becomes active: the most recent is the highest.
    var activation = 0
    /// The activity `stateRestorationActivity(for:)` returned as the scene last entered the background,
    /// handed to its next connection (§11.9).
    public internal(set) var restorationActivity: PreservedState?
}

/// What an app's scenes remember besides their sessions (LIFECYCLE §11.8).
struct SceneBook: Equatable, Sendable, Codable {
    var sessions: [SceneSession] = []
    /// The number of the next server-made session id (`s1`, `s2`, ...); ids are never reused.
    var nextNumber = 1
    /// The sessions in the foreground when the app last left it.
    var lastForegroundSet: [String] = []
    /// The last activation number handed out.
    var activations = 0
    /// Ids of discarded sessions the client named: never used again, so a session id always names one session
    /// in a timeline. Server-made ids are taken by their number (`isServerMade`) and not kept here (apps saved
    /// before kept them too).
    var retired: [String] = []

    /// The most sessions an app has at once (LIFECYCLE §11.9, chosen): each costs every event of the app.
    static let maxSessions = 32
    /// The most session names a client may retire over an app's life: they are kept for good.
    static let maxRetiredNames = 4096

    func isTaken(_ id: String) -> Bool {
        sessions.contains { $0.id == id } || isServerMade(id) || retired.contains(id)
    }

    /// `s1`, `s2`, ... below `nextNumber`: made by the server, or skipped because a client had the name.
    func isServerMade(_ id: String) -> Bool {
        guard id.hasPrefix("s"), let number = Int(id.dropFirst()), number >= 1, number < nextNumber else {
            return false
        }
        return id == "s\(number)"
    }
}

/// One `UISceneConfiguration` of the Info.plist scene manifest.
public struct SceneConfiguration: Equatable, Sendable, Codable {
    public var name: String
    public var role: String
    /// nil: the configuration names no scene delegate class.
    public var delegateClass: String?

    public init(name: String, role: String = SceneRole.application, delegateClass: String? = "SceneDelegate") {
        self.name = name
        self.role = role
        self.delegateClass = delegateClass
    }
}

/// `UIApplicationSceneManifest`: its presence opts an iOS 13+ app into the scene life cycle (§11.1).
public struct SceneManifest: Equatable, Sendable, Codable {
    public var supportsMultipleScenes = false
    public var configurations: [SceneConfiguration] = []

    public init(supportsMultipleScenes: Bool = false, configurations: [SceneConfiguration] = []) {
        self.supportsMultipleScenes = supportsMultipleScenes
        self.configurations = configurations
    }
}

public enum SceneRole {
    public static let application = "UIWindowSceneSessionRoleApplication"
}

/// The device family: multiple scenes need an iPad.
public enum Idiom: String, Sendable, Codable, CaseIterable {
    case phone, pad
}
