package import LifecycleCore
import LifecycleJSON

/// An app's terminations in MetricKit's shape: the counts of `MXAppExitMetric`'s `foregroundExitData` and
/// `backgroundExitData`, under the keys `jsonRepresentation()` writes (docs/API.md, "Reading what happened").
package enum ExitMetricEncoder {
    /// `MXForegroundExitData`'s counts, in its order: the categories an app in front can end by.
    static let foreground: [(TerminationCategory, StaticString)] = [
        (.normal, "cumulativeNormalAppExitCount"),
        (.memoryLimit, "cumulativeMemoryResourceLimitExitCount"),
        (.badAccess, "cumulativeBadAccessExitCount"),
        (.abnormal, "cumulativeAbnormalExitCount"),
        (.illegalInstruction, "cumulativeIllegalInstructionExitCount"),
        (.watchdog, "cumulativeAppWatchdogExitCount"),
    ]

    /// `MXBackgroundExitData`'s counts: the foreground's and those only the background has.
    static let background: [(TerminationCategory, StaticString)] =
        foreground + [
            (.highCPU, "cumulativeCPUResourceLimitExitCount"),
            (.systemPressure, "cumulativeMemoryPressureExitCount"),
            (.fileLock, "cumulativeSuspendedWithLockedFileExitCount"),
            (.taskTimeout, "cumulativeBackgroundTaskAssertionTimeoutExitCount"),
        ]

    /// `{"app", "device", "applicationExitMetrics": {"foregroundExitData": {...}, "backgroundExitData": {...}}}`.
    package static func body(app: String, device: String, exits: ExitCounts) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 1024)
        w.beginObject()
        w.field("app")
        w.string(app)
        w.field("device")
        w.string(device)
        w.field("applicationExitMetrics")
        w.beginObject()
        for (name, inFront, keys): (StaticString, Bool, [(TerminationCategory, StaticString)]) in [
            ("foregroundExitData", true, foreground), ("backgroundExitData", false, background),
        ] {
            w.field(name)
            w.beginObject()
            for (category, key) in keys {
                w.field(key)
                w.int(exits.count(category, foreground: inFront))
            }
            w.endObject()
        }
        w.endObject()
        w.endObject()
        return w.bytes
    }
}
