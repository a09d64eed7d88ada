/// How apps die (LIFECYCLE §9.1): each way an app stops running described once, as crash reports and MetricKit
/// tell it. Every termination's code, signal, category and jetsam reason come from this table, its reason alone
/// decides them (an entry read back from any earlier journal or snapshot gets them too); whether the app was in
/// front is the one fact of the moment (`Termination.foreground`).
extension TerminationReason {
    /// What a termination of this reason is: one row per reason.
    public var kind: TerminationKind {
        switch self {
        case .exited: TerminationKind(code: nil, signal: nil, category: .normal)
        case .terminated: TerminationKind(code: nil, signal: .kill, category: .normal)
        case .forceQuit: TerminationKind(code: "0xdeadfa11", signal: .kill, category: .normal)
        case .crash: TerminationKind(code: nil, signal: .abort, category: .abnormal)
        case .reboot: TerminationKind(code: nil, signal: .kill, category: .normal)
        case .watchdog: TerminationKind(code: "0x8badf00d", signal: .kill, category: .watchdog)
        case .backgroundTaskExpired: TerminationKind(code: "0x2182bad2", signal: .kill, category: .taskTimeout)
        case .backgroundURLSessionExpired:
            TerminationKind(code: "0x2182bad3", signal: .kill, category: .taskTimeout)
        case .memoryPressure:
            TerminationKind(code: nil, signal: .kill, category: .systemPressure, jetsamReason: .pageShortage)
        case .sceneLifecycleRequired: TerminationKind(code: nil, signal: .trap, category: .illegalInstruction)
        case .gpuInBackground: TerminationKind(code: nil, signal: .segmentationFault, category: .badAccess)
        case .sharedResourceInUse: TerminationKind(code: "0xdead10cc", signal: .kill, category: .fileLock)
        case .suspendedWithLockedFile: TerminationKind(code: "0xdead10cc", signal: .kill, category: .fileLock)
        case .scheduledTaskExpired: TerminationKind(code: "0x2182bad2", signal: .kill, category: .taskTimeout)
        }
    }
}

/// A termination's facts as a crash report and MetricKit give them.
public struct TerminationKind: Equatable, Sendable {
    /// The termination reason code in hex (`0x8badf00d`); nil when the report carries none.
    public var code: String?
    /// The signal the process ended with; nil for an app that exited by itself.
    public var signal: TerminationSignal?
    /// MetricKit's category (iOS 27 `CrashDiagnostic.TerminationCategory`).
    public var category: TerminationCategory
    /// For a memory kill, the reason in the jetsam event report.
    public var jetsamReason: JetsamReason?

    init(code: String?, signal: TerminationSignal?, category: TerminationCategory, jetsamReason: JetsamReason? = nil) {
        self.code = code
        self.signal = signal
        self.category = category
        self.jetsamReason = jetsamReason
    }
}

/// The signals processes end with ("Understanding the exception types in a crash report").
public enum TerminationSignal: String, Sendable, Codable, CaseIterable {
    case kill = "SIGKILL"
    case abort = "SIGABRT"
    case segmentationFault = "SIGSEGV"
    case busError = "SIGBUS"
    case trap = "SIGTRAP"
    case illegalInstruction = "SIGILL"
}

/// MetricKit's termination categories, by their iOS 27 names (`CrashDiagnostic.TerminationCategory`, the
/// counts of `ForegroundTerminationMetric` and `BackgroundTerminationMetric`).
public enum TerminationCategory: String, Sendable, Codable, CaseIterable {
    case normal, abnormal, watchdog, taskTimeout, badAccess, illegalInstruction, memoryLimit, systemPressure
    case fileLock, highCPU
}

/// Why jetsam chose the process ("Identifying high-memory use with jetsam event reports").
public enum JetsamReason: String, Sendable, Codable, CaseIterable {
    /// The process passed its own memory limit.
    case perProcessLimit = "per-process-limit"
    /// The system ran short of memory and freed it from processes in the background.
    case pageShortage = "vm-pageshortage"
}

/// How often an app has stopped running, by category, in front and not: what MetricKit's `MXAppExitMetric`
/// counts. Kept from this release on; a termination before it counts nowhere but in the timeline.
public struct ExitCounts: Equatable, Sendable, Codable {
    /// Category raw value → count; absent is zero.
    public private(set) var foreground: [String: Int] = [:]
    public private(set) var background: [String: Int] = [:]

    public init() {}

    public func count(_ category: TerminationCategory, foreground inFront: Bool) -> Int {
        (inFront ? foreground : background)[category.rawValue] ?? 0
    }

    mutating func add(_ category: TerminationCategory, foreground inFront: Bool) {
        if inFront {
            foreground[category.rawValue, default: 0] += 1
        } else {
            background[category.rawValue, default: 0] += 1
        }
    }
}
