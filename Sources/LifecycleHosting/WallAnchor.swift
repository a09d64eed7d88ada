package import LifecycleCore

/// Where a device's clock stands on the wall clock of its host: a realtime clock read 0 at `wall` and moves
/// `clockSpeed` simulated seconds per wall second. The one place the realtime formula is written; the host's
/// timer and every read (`PublishedDevice.current`) go through it.
package struct WallAnchor: Sendable {
    /// The wall clock the device follows (and the timers of its deadlines).
    package let clock: any HostClock
    /// Wall-clock seconds (since 1970) at which the device's clock read 0.
    package let wall: Double

    package init(clock: any HostClock, wall: Double) {
        self.clock = clock
        self.wall = wall
    }

    /// The device's clock now: the wall clock times its speed for a realtime clock, its own time otherwise.
    package func time(of device: Device) -> Double {
        guard device.configuration.clockMode == .realtime else { return device.time }
        return time(atWall: clock.now, speed: device.configuration.clockSpeed)
    }

    /// Wall seconds from now until a realtime clock moving at `speed` reads `time` (0 once it has): a timer
    /// set for them finds `time` passed when it fires, rounding aside.
    package func seconds(until time: Double, speed: Double) -> Double {
        var at = wall + time / speed
        for _ in 0..<16 where self.time(atWall: at, speed: speed) < time { at = at.nextUp }
        return max(0, at - clock.now)
    }

    private func time(atWall at: Double, speed: Double) -> Double {
        (at - wall) * speed
    }
}
