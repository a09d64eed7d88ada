package import LifecycleCore

/// One event of a walk: posted on an app's path (`app`), or on its device's (nil).
package struct WalkStep: Equatable, Sendable {
    /// The device's index in the world, in the order the setup made them.
    package var device: Int
    package var app: String?
    package var event: Event

    package init(device: Int, app: String?, event: Event) {
        self.device = device
        self.app = app
        self.event = event
    }
}

/// The world as a walk leaves it: each device, and every entry it produced, oldest first (as its timeline
/// serves them).
package struct WorldState: Sendable {
    package var devices: [Device] = []
    package var timelines: [[TimelineEntry]] = []
    /// The daemon each step the core takes is posted to as well (`ExploreDaemon`); nil: this process only.
    var daemon: ExploreDaemon?
    /// The first step the daemon refused although the core took it: the daemon is not the core of this process.
    package var daemonProblem: String?
    /// The live apps' delegates (LIFECYCLE §13); nil: every app is scripted.
    var live: LiveAnswerers?

    /// Applies one step as the daemon would apply its request; false, changing nothing, when the core refuses it.
    @discardableResult
    package mutating func apply(_ step: WalkStep) -> Bool {
        do {
            let outcome = try devices[step.device].apply(
                [step.event], app: step.app, now: devices[step.device].time, answering: live)
            timelines[step.device] += outcome.entries
            live?.processesEnded(in: outcome.entries)
            post(step)
            return true
        } catch {
            return false
        }
    }

    /// The index of the device with id `id`, or of the one holding app `id`.
    func device(holding id: String, isDevice: Bool) -> Int? {
        devices.firstIndex { isDevice ? $0.id == id : $0.app(id) != nil }
    }
}
