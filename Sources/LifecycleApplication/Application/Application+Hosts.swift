package import LifecycleCore
package import LifecycleHosting
import LifecycleStore

extension Application {
    package var historyBounds: HistoryBounds {
        HistoryBounds(
            entries: options.historyLimit, bytes: options.historyBytes, recordingBytes: options.recordingBytes)
    }

    /// How a host of `space` runs, and what it reports to: metrics, store failures, and the namespace's
    /// `changes` feed (`NamespaceObserver`); it keeps the namespace's index of apps by state itself.
    package func hostSettings(for space: Namespace) -> HostSettings {
        let observer = NamespaceObserver(
            feed: space.changeFeed, metrics: metrics.hosts,
            storeDidFail: { [weak self] error in self?.storeDidFail(error) })
        var settings = HostSettings(rendering: rendering, observer: observer)
        settings.stateIndex = space.stateIndex
        settings.snapshotEvery = options.snapshotEvery
        settings.snapshotBytes = options.snapshotBytes
        settings.memoryBudget = memoryBudget
        settings.namespace = space.name
        settings.liveAnswerTimeout = options.liveAnswerTimeout
        if options.traceSlowMilliseconds > 0 {
            settings.trace = SlowTrace(milliseconds: options.traceSlowMilliseconds, logger: logger)
        }
        return settings
    }

    package func makeHost(_ device: Device, in space: Namespace, anchorWall: Double, journaled: Bool = false)
        -> DeviceHost
    {
        DeviceHost(
            device: device, stream: space.stream(ofDevice: device.id), clock: options.clock, anchorWall: anchorWall,
            journal: journal, history: historyBounds, settings: hostSettings(for: space), journaled: journaled)
    }
}
