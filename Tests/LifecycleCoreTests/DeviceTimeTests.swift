import Testing

@testable import LifecycleCore

@Suite("§10 Time")
struct DeviceTimeTests {
    @Test("§10 manual clock: time moves only by advanceTime and callback durations; now is ignored")
    func manualIgnoresNow() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", durations: [Selector.didBecomeActive: 1.5])
        try sim.on("a", .foregroundLaunch, now: 1000)
        #expect(sim.time == 1.5)
        try sim.onDevice(.wait(10), now: 5000)
        #expect(sim.time == 11.5)
    }

    @Test("§10 callbacks take their duration of simulated time; entries carry the time they happened")
    func callbackDurations() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", durations: [Selector.didFinishLaunchingWithOptions: 2, Selector.willResignActive: 0.5])
        try sim.on("a", .foregroundLaunch, .homeButton)
        let callbacks = sim.entries.of("a").filter(\.isCallback)
        #expect(callbacks.map(\.time) == [0, 0, 2, 2, 2.5])
        #expect(sim.time == 2.5)
        if case .callback(_, _, _, let duration) = callbacks[1].body { #expect(duration == 2) }
    }

    @Test("§10 realtime clock: apply first advances to now, firing the deadlines on the way")
    func realtimeAdvancesFirst() throws {
        var sim = Sim(ios: "7.0", clock: .realtime)
        sim.add("a")
        try sim.on("a", .foregroundLaunch, now: 1)
        #expect(sim.time == 1)
        try sim.on("a", .task("sync", duration: 10), .homeButton, now: 2)
        #expect(sim.device.nextDeadline == 12)
        let outcome = try sim.on("a", .touch, now: 20)
        #expect(outcome.entries.map(\.line) == ["task ended 1", "state background→suspended", "runloop touch false"])
        #expect(outcome.entries.map(\.time) == [12, 12, 20])
        #expect(sim.time == 20)
    }

    @Test("§10 realtime: a rejected apply does not move the clock either")
    func realtimeRejection() throws {
        var sim = Sim(ios: "7.0", clock: .realtime)
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task(duration: 5), .homeButton, now: 0)
        let before = sim.device
        #expect(throws: Rejection.self) { try sim.onDevice(.unlock, now: 100) }
        #expect(sim.device == before)
        #expect(sim.time == 0)
    }

    @Test("§10 realtime: a now in the past never moves the clock back")
    func neverBack() throws {
        var sim = Sim(ios: "7.0", clock: .realtime)
        sim.add("a", durations: [Selector.didBecomeActive: 30])
        try sim.on("a", .foregroundLaunch, now: 10)
        #expect(sim.time == 40)
        try sim.on("a", .touch, now: 20)
        #expect(sim.time == 40)
        #expect(sim.last.entries.map(\.time) == [40])
    }

    @Test("§10 nextDeadline is the earliest pending deadline; nil when nothing is pending")
    func nextDeadline() throws {
        var sim = Sim(ios: "7.0", suspendDelay: 4)
        sim.add("a")
        sim.add("b")
        #expect(sim.device.nextDeadline == nil)
        try sim.on("a", .foregroundLaunch, .task(duration: 100), .task(), .homeButton)
        #expect(sim.device.nextDeadline == 100)
        try sim.on("b", .backgroundLaunch)
        #expect(sim.device.nextDeadline == 4)
        try sim.onDevice(.wait(4))
        #expect(sim.device.nextDeadline == 100)
        try sim.onDevice(.wait(96))
        #expect(sim.device.nextDeadline == 180)
    }

    @Test("§10 advance(to:) fires every deadline up to the target, in time order")
    func advanceFiresInOrder() throws {
        var sim = Sim(ios: "7.0", clock: .realtime)
        sim.add("a")
        sim.add("b")
        try sim.on("b", .foregroundLaunch, .task(duration: 3), now: 0)
        try sim.on("a", .foregroundLaunch, .task(duration: 7), now: 0)
        try sim.onDevice(.homeButton, now: 0)
        #expect(sim.device.nextDeadline == 3)
        let outcome = sim.advance(to: 10)
        #expect(
            outcome.entries.map { "\($0.app!) \($0.line) @\($0.time)" } == [
                "b task ended 1 @3.0", "b state background→suspended @3.0",
                "a task ended 2 @7.0", "a state background→suspended @7.0",
            ])
        #expect(sim.time == 10)
        #expect(sim.device.nextDeadline == nil)
        #expect(sim.advance(to: 5) == Outcome(entries: [], changed: false))
        #expect(sim.time == 10)
    }

    @Test("§10 advanceTime fires deadlines too, and refuses negative seconds")
    func advanceTimeEvent() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task(duration: 3), .homeButton)
        let outcome = try sim.onDevice(.wait(5))
        #expect(outcome.entries.map(\.line) == ["device advanceTime", "task ended 1", "state background→suspended"])
        #expect(outcome.entries[0].body == .device(event: "advanceTime", detail: ["seconds": 5]))
        #expect(sim.rejection(nil, .wait(-1))?.field == "seconds")
        #expect(sim.rejection(nil, .wait(.infinity))?.field == "seconds")
        #expect(sim.time == 5)
    }
}
