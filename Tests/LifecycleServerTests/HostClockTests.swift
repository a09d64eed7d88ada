import Dispatch
import LifecycleCore
import LifecycleHosting
import Locking
import TestSupport
import Testing

/// A manual clock fires the timers due as it is advanced, in the order of their deadlines and each at its
/// deadline, before `advance` returns; a realtime device's timer, set through its `WallAnchor`, finds its
/// deadline passed when it fires.
@Suite struct HostClockTests {
    /// What the handlers saw: their label and the clock's reading as they ran.
    final class Fired: Sendable {
        let list = Protected<[String]>([])
        func append(_ label: String, _ clock: ManualHostClock, start: Double) {
            list.append("\(label)@\(clock.now - start)")
        }
    }

    @Test func timersFireInTheOrderOfTheirDeadlinesEachAtItsDeadlineBeforeAdvanceReturns() {
        let clock = ManualHostClock()
        let start = clock.now
        let queue = DispatchQueue(label: "HostClockTests")
        let fired = Fired()
        var timers: [any HostTimer] = []
        for (label, seconds) in [("a", 3.0), ("b", 1.0), ("c", 2.0), ("d", 1.0)] {
            let timer = clock.makeTimer(on: queue) { fired.append(label, clock, start: start) }
            timer.schedule(after: seconds)
            timers.append(timer)
        }
        clock.advance(by: 0.5)
        #expect(fired.list.get().isEmpty)
        clock.advance(by: 2)
        #expect(fired.list.get() == ["b@1.0", "d@1.0", "c@2.0"])
        #expect(clock.now == start + 2.5)
        clock.advance(by: 1)
        #expect(fired.list.get() == ["b@1.0", "d@1.0", "c@2.0", "a@3.0"])
        #expect(clock.armedTimers == 0)
    }

    @Test func aTimerItsHandlerSchedulesAgainFiresInTheSameAdvance() {
        let clock = ManualHostClock()
        let start = clock.now
        let fired = Fired()
        let timer = Protected<(any HostTimer)?>(nil)
        timer.set(
            clock.makeTimer(on: .global()) {
                fired.append("tick", clock, start: start)
                timer.withLock { $0?.schedule(after: 1) }
            })
        timer.withLock { $0?.schedule(after: 1) }
        clock.advance(by: 3.5)
        #expect(fired.list.get() == ["tick@1.0", "tick@2.0", "tick@3.0"])
        #expect(clock.armedTimers == 1)
        timer.withLock { $0?.cancel() }
        #expect(clock.armedTimers == 0)
    }

    @Test func aCancelledTimerNeverFiresAndARescheduledOneFiresOnlyAtItsNewTime() {
        let clock = ManualHostClock()
        let start = clock.now
        let fired = Fired()
        let cancelled = clock.makeTimer(on: .global()) { fired.append("cancelled", clock, start: start) }
        cancelled.schedule(after: 1)
        cancelled.cancel()
        cancelled.schedule(after: 1)
        let moved = clock.makeTimer(on: .global()) { fired.append("moved", clock, start: start) }
        moved.schedule(after: 1)
        moved.schedule(after: 5)
        clock.after(2, on: .global()) { fired.append("after", clock, start: start) }
        clock.advance(by: 10)
        #expect(fired.list.get() == ["after@2.0", "moved@5.0"])
    }

    /// Seconds of wall time as the device's deadline would be found by its timer: the anchors, speeds and times
    /// are some for which `anchor + time / speed` read back is short of `time` by a rounding.
    @Test(arguments: [
        (1_800_000_000.0, 100.0, 10.0), (1_800_000_000.0, 3.0, 7.1), (1_800_000_000.0, 0.5, 0.3),
        (1_763_900_000.25, 7.0, 12_345.678), (1_800_000_000.123, 10.0, 30.0), (0.0, 1.0, 5.0),
    ])
    func aRealtimeDeadlinesTimerFindsItPassed(anchorWall: Double, speed: Double, time: Double) throws {
        var configuration = DeviceConfiguration()
        configuration.clockMode = .realtime
        configuration.clockSpeed = speed
        let device = try Device(id: "d", configuration: configuration)
        let clock = ManualHostClock(now: anchorWall)
        let anchor = WallAnchor(clock: clock, wall: anchorWall)
        let queue = DispatchQueue(label: "HostClockTests")
        let seen = Protected<Double?>(nil)
        let timer = clock.makeTimer(on: queue) { seen.set(anchor.time(of: device)) }
        timer.schedule(after: anchor.seconds(until: time, speed: speed))
        clock.advance(by: time / speed + 1)
        let read = try #require(seen.get())
        #expect(read >= time)
        #expect(read - time < 1e-3, "the timer fired late: the device read \(read) for \(time)")
        #expect(anchor.seconds(until: time, speed: speed) == 0)
    }
}
